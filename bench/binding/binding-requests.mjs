// The inputs of the binding micro-benchmark: what route (b) sees once the router and the lazy
// request have done their part (params matched, query parsed, headers answered from Node's
// parsed object, as Kiln's NodeHeaders does). Both binders read the very same objects.

function request({ id, query, headers }) {
  const flat = Object.assign(Object.create(null), headers);
  return {
    params: Object.assign(Object.create(null), { id }),
    query: Object.assign(Object.create(null), query),
    headers: { get: (name) => flat[name.toLowerCase()] ?? null },
  };
}

/** The request that is timed: GET /users/42?active=true&tags=a&tags=b, x-request-id: abc. */
export const timedRequest = request({ id: '42', query: { active: 'true', tags: ['a', 'b'] }, headers: { 'x-request-id': 'abc' } });

/** More shapes the two binders must agree on before anything is timed. */
export const checkedRequests = [
  timedRequest,
  request({ id: '7', query: { tags: 'solo' }, headers: {} }),
  request({ id: '0', query: { active: '1' }, headers: { 'x-request-id': 'r-1' } }),
  request({ id: 'x', query: { active: 'no', tags: ['a', 'b', 'c'] }, headers: { 'x-request-id': '' } }),
];
