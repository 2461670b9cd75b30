// The four HTTP scenarios: what is sent, and what every server must answer before it is timed.

const userPath = '/users/42?active=true&tags=a&tags=b';
const newUser = { name: 'Ada', email: 'ada@example.com', age: 36 };

export const scenarios = [
  {
    id: 'a',
    title: '(a) GET /hello',
    request: { method: 'GET', path: '/hello', headers: {} },
    expected: { hello: 'world' },
  },
  {
    id: 'b',
    title: '(b) GET /users/:id, typed params + query array + header',
    request: { method: 'GET', path: userPath, headers: { 'x-request-id': 'abc' } },
    expected: { id: 42, active: true, tags: ['a', 'b'], requestId: 'abc' },
  },
  {
    id: 'c',
    title: '(c) POST /users, JSON body validated',
    request: { method: 'POST', path: '/users', headers: { 'content-type': 'application/json' }, body: JSON.stringify(newUser) },
    expected: { id: 1, ...newUser },
    // Each server must also refuse an invalid body with a 400.
    invalid: { method: 'POST', path: '/users', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...newUser, age: -1 }) },
  },
  {
    id: 'd',
    title: '(d) route (b) behind a global rate limiter',
    rateLimited: true,
    // Measured right after the same server's (b) in each round, so the (d)/(b) ratio compares
    // measurements seconds apart.
    after: 'b',
    request: { method: 'GET', path: userPath, headers: { 'x-request-id': 'abc' } },
    expected: { id: 42, active: true, tags: ['a', 'b'], requestId: 'abc' },
  },
];
