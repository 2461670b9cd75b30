import { errorBody } from '../response/error-body.js';

/**
 * 431 when a request given to a Bun or Deno listener has more header fields than
 * `maxHeadersCount`, like Node's listener. A web `Request` joins repeated header lines into one
 * field, so here the count is of distinct names: repeated lines count once.
 */
export function tooManyHeaders(request: Request, maxHeadersCount: number): Response | undefined {
  let count = 0;
  for (const _ of request.headers.keys()) if (++count > maxHeadersCount) break;
  if (count <= maxHeadersCount) return undefined;
  return new Response(errorBody(431, `The request has more than ${maxHeadersCount} header lines`), {
    status: 431,
    headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
  });
}
