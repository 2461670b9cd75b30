// The inputs of the binding micro-benchmark: what route (b)'s binder sees once the router and
// the lazy request have done their part. Built with Kiln's own pieces (internal modules, read by
// file path): params as the router makes them, the query from Kiln's parser, headers through
// Kiln's NodeHeaders over Node's parsed header object. Both binders read the very same objects.
import { NodeHeaders } from '../../dist/src/adapter/node/node-headers.js';
import { parseQueryString } from '../../dist/src/request/query-string.js';

function request(id, search, headers) {
  const params = Object.create(null);
  params.id = id;
  return { params, query: parseQueryString(search), headers: new NodeHeaders(headers, Object.entries(headers).flat()) };
}

/** The request that is timed: GET /users/42?active=true&tags=a&tags=b, x-request-id: abc. */
export const timedRequest = request('42', 'active=true&tags=a&tags=b', { host: '127.0.0.1', 'x-request-id': 'abc' });

/** More shapes the two binders must agree on before anything is timed. */
export const checkedRequests = [
  timedRequest,
  request('7', 'tags=solo', {}),
  request('0', 'active=1', { 'x-request-id': 'r-1' }),
  request('-3.5', 'active=no&tags=a&tags=b&tags=c', { 'x-request-id': '' }),
];
