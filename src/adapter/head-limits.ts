import type { ErrorFormat } from '../response/error-format.js';

/**
 * 431 when a request given to the Bun or Deno listener has more header fields than
 * `maxHeadersCount`, or headers larger than `maxHeaderSize`, as Node's listener answers them. A
 * web `Request` has joined repeated header lines into one field, so repeated lines count once
 * and the size is that of `name: value` per field (the runtime's own limits apply first:
 * docs/guide/runtimes.md).
 */
// hot path (Bun, Deno): one pass over the header fields, with forEach and one module-level
// callback: Headers' iterator makes an entry array per field and costs several times more (Deno's
// most of all), and a callback made per request would be one more allocation.
export function headLimitProblem(
  request: Request,
  maxHeadersCount: number,
  maxHeaderSize: number,
  errors: ErrorFormat,
): Response | undefined {
  fieldCount = 0;
  fieldBytes = request.url.length;
  request.headers.forEach(tally);
  if (fieldCount > maxHeadersCount) return refused(errors, `The request has more than ${maxHeadersCount} header lines`);
  if (fieldBytes > maxHeaderSize) return refused(errors, 'Request line and headers are larger than the server accepts');
  return undefined;
}

// What tally() has counted for the request being checked; headLimitProblem runs synchronously, one request at a time.
let fieldCount = 0;
let fieldBytes = 0;

function tally(value: string, name: string): void {
  fieldCount++;
  fieldBytes += name.length + value.length + 4;
}

function refused(errors: ErrorFormat, message: string): Response {
  return new Response(errors.body(431, message), {
    status: 431,
    headers: { 'content-type': errors.contentType, connection: 'close' },
  });
}
