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
  contentLength = undefined;
  request.headers.forEach(tally);
  countedRequest = request;
  if (fieldCount > maxHeadersCount) return refused(errors, `The request has more than ${maxHeadersCount} header lines`);
  if (fieldBytes > maxHeaderSize) return refused(errors, 'Request line and headers are larger than the server accepts');
  return undefined;
}

// What tally() has counted for the request being checked; headLimitProblem runs synchronously, one request at a time.
let fieldCount = 0;
let fieldBytes = 0;
let contentLength: string | undefined;

function tally(value: string, name: string): void {
  fieldCount++;
  fieldBytes += name.length + value.length + 4;
  if (name === 'content-length') contentLength = value;
}

/** The last request the pass counted: `contentLength` is its Content-Length (undefined: none). */
let countedRequest: Request | undefined;

/**
 * The Content-Length the header-limits pass read on `request` (undefined: it has none), or null
 * when the pass did not count this request (the last one counted is another). The pass has every
 * field in hand already: reading the field again would be one more Headers lookup per request,
 * and the request reads it at once, before the next request is counted (`kOversizedBody`).
 */
export function countedContentLength(request: Request): string | undefined | null {
  return request === countedRequest ? contentLength : null;
}

function refused(errors: ErrorFormat, message: string): Response {
  return new Response(errors.body(431, message), {
    status: 431,
    headers: { 'content-type': errors.contentType, connection: 'close' },
  });
}
