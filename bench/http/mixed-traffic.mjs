// Scenario (m), mixed traffic: one server process answering a rotation over nine routes of
// different shapes, as a real server does. Each entry is what is sent and what must come back; the
// check (check-server.mjs) verifies every answer before timing, and wrk sends them in turn
// (load-generator.mjs writes its Lua script from this list).

const csv = 'id,name\n1,Ada\n2,Grace\n';

export const mixedRequests = [
  {
    shape: 'no params',
    request: { method: 'GET', path: '/hello', headers: {} },
    expected: { status: 200, json: { hello: 'world' } },
  },
  {
    shape: 'typed params + query array + header (route b)',
    request: { method: 'GET', path: '/users/42?active=true&tags=a&tags=b', headers: { 'x-request-id': 'abc' } },
    expected: { status: 200, json: { id: 42, active: true, tags: ['a', 'b'], requestId: 'abc' } },
  },
  {
    shape: 'typed route parameter',
    request: { method: 'GET', path: '/items/7', headers: {} },
    expected: { status: 200, json: { id: 7 } },
  },
  {
    shape: 'query array + typed query',
    request: { method: 'GET', path: '/search?tags=x&tags=y&tags=z&limit=10', headers: {} },
    expected: { status: 200, json: { tags: ['x', 'y', 'z'], limit: 10 } },
  },
  {
    shape: 'header',
    request: { method: 'GET', path: '/whoami', headers: { 'x-user': 'ada' } },
    expected: { status: 200, json: { user: 'ada' } },
  },
  {
    shape: 'validated JSON body (route c)',
    request: {
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ada","email":"ada@example.com","age":36}',
    },
    expected: { status: 200, json: { id: 1, name: 'Ada', email: 'ada@example.com', age: 36 } },
  },
  {
    shape: '204, no body',
    request: { method: 'DELETE', path: '/users/42', headers: {} },
    expected: { status: 204, text: '' },
  },
  {
    shape: 'a Response (text/csv)',
    request: { method: 'GET', path: '/report.csv', headers: {} },
    expected: { status: 200, contentType: /^text\/csv/, text: csv },
  },
  {
    shape: 'route-level rate limiter',
    request: { method: 'GET', path: '/limited', headers: {} },
    expected: { status: 200, json: { limited: true }, rateLimitHeaders: true },
  },
];

/**
 * (m) again, with the CSV route of handlers that build the global `Response` (for Kiln; every
 * other server answers `/report-web.csv` as it answers `/report.csv`).
 */
export const mixedRequestsGlobalResponse = mixedRequests.map((entry) =>
  entry.request.path === '/report.csv'
    ? { ...entry, shape: 'a global Response (text/csv)', request: { ...entry.request, path: '/report-web.csv' } }
    : entry,
);

/** The CSV every server's `GET /report.csv` and `GET /report-web.csv` answer. */
export const reportCsv = csv;
