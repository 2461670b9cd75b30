import { errorBody } from '../response/error-body.js';

/**
 * 431 when a request given to the Bun or Deno listener has more header fields than
 * `maxHeadersCount`, or headers larger than `maxHeaderSize`, as Node's listener answers them. A
 * web `Request` has joined repeated header lines into one field, so repeated lines count once
 * and the size is that of `name: value` per field (the runtime's own limits apply first:
 * docs/guide/runtimes.md).
 */
// hot path (Bun, Deno): one pass over the header fields
export function headLimitProblem(request: Request, maxHeadersCount: number, maxHeaderSize: number): Response | undefined {
  let count = 0;
  let size = request.url.length;
  for (const [name, value] of request.headers) {
    count++;
    size += name.length + value.length + 4;
  }
  if (count > maxHeadersCount) return refused(`The request has more than ${maxHeadersCount} header lines`);
  if (size > maxHeaderSize) return refused('Request line and headers are larger than the server accepts');
  return undefined;
}

function refused(message: string): Response {
  return new Response(errorBody(431, message), {
    status: 431,
    headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
  });
}
