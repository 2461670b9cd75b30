// The HTTP scenarios: what is sent, what every server must answer before it is timed, and which
// of a server's processes serves it. Each server runs three processes: 'fresh' serves route (b)
// only, as a process serving one route; 'main' serves everything else, in this order each round
// — (a), (c), (e), the mixed traffic (m) and (mw), then route (b) again ('b2'): (b) in a process that has
// served every other route first; 'rate-limited' serves (d).
import { mixedRequests, mixedRequestsGlobalResponse } from './mixed-traffic.mjs';

const userPath = '/users/42?active=true&tags=a&tags=b';
const newUser = { name: 'Ada', email: 'ada@example.com', age: 36 };
const bExpected = { id: 42, active: true, tags: ['a', 'b'], requestId: 'abc' };

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
    process: 'fresh',
    request: { method: 'GET', path: userPath, headers: { 'x-request-id': 'abc' } },
    expected: bExpected,
  },
  {
    id: 'd',
    title: '(d) route (b) behind a global rate limiter',
    process: 'rate-limited',
    rateLimited: true,
    // Measured right after the same server's (b) in each round, so the (d)/(b) ratio compares
    // measurements seconds apart.
    after: 'b',
    request: { method: 'GET', path: userPath, headers: { 'x-request-id': 'abc' } },
    expected: bExpected,
  },
  {
    id: 'c',
    title: '(c) POST /users, JSON body validated',
    request: { method: 'POST', path: '/users', headers: { 'content-type': 'application/json' }, body: JSON.stringify(newUser) },
    expected: { id: 1, ...newUser },
    // Each server must also refuse an invalid body with a 400.
    invalid: {
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...newUser, age: -1 }),
    },
  },
  {
    id: 'e',
    title: '(e) GET /users, a list of 100 typed users',
    request: { method: 'GET', path: '/users', headers: {} },
    // Checked against the list itself (user-list.ts), loaded by the check.
    expectedList: true,
  },
  {
    id: 'm',
    title: `(m) mixed traffic: ${mixedRequests.length} routes in rotation, one process`,
    mixed: mixedRequests,
  },
  {
    id: 'mw',
    title: `(m) again, with Kiln's handler building the global Response (the other servers unchanged)`,
    mixed: mixedRequestsGlobalResponse,
  },
  {
    id: 'b2',
    title: '(b) again, in the process that has served (a), (c), (e) and (m)',
    request: { method: 'GET', path: userPath, headers: { 'x-request-id': 'abc' } },
    expected: bExpected,
  },
];

/** The process of a server that serves a scenario. */
export function processOf(scenario) {
  return scenario.process ?? 'main';
}

/**
 * A mixed scenario kept to some of its rotation's requests (`routes`: '1,6', numbered from 1), to
 * see which part of the mix carries a difference; any other scenario as it is.
 */
export function withRoutes(scenario, routes) {
  if (routes === undefined || scenario?.mixed === undefined) return scenario;
  const kept = routes.split(',').map((n) => scenario.mixed[Number(n) - 1]);
  return { ...scenario, id: `${scenario.id}-${routes}`, title: `${scenario.title}, routes ${routes} only`, mixed: kept };
}
