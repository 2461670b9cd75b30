/**
 * Which response headers Kiln will send. Node's `writeHead` throws on a header it cannot send, so
 * every header that comes from application code is checked against the same rules first.
 */

// RFC 9110 5.6.2 token: the characters Node's own check (`validateHeaderName`) accepts.
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What Node's `validateHeaderValue` refuses: control characters except tab, DEL, and anything past Latin-1.
const unsendable = /[^\t\x20-\x7e\x80-\xff]/;

/** True when `name` is an HTTP token (`x-request-id`, `Set-Cookie`). */
export function isHeaderName(name: unknown): name is string {
  return typeof name === 'string' && token.test(name);
}

/** True when HTTP/1.1 can carry `value` unchanged: no CR, LF, NUL or other control character, nothing past U+00FF. */
export function isHeaderValue(value: unknown): value is string {
  return typeof value === 'string' && !unsendable.test(value);
}

/**
 * Headers that describe the connection or the message framing (RFC 9110 7.6.1 hop-by-hop fields,
 * `content-length`). Kiln writes these itself from what it actually sends; copying them from a
 * handler's `Response` would desynchronise keep-alive and pipelined connections.
 * `lowerName` must be lower-case.
 */
export function isFramingHeader(lowerName: string): boolean {
  switch (lowerName) {
    case 'connection':
    case 'keep-alive':
    case 'transfer-encoding':
    case 'upgrade':
    case 'te':
    case 'trailer':
    case 'trailers':
    case 'content-length':
      return true;
    default:
      return lowerName.startsWith('proxy-');
  }
}

/** True for an integer status Kiln sends as a final response (200–599). */
export function isSendableStatus(status: unknown): status is number {
  return typeof status === 'number' && status >= 200 && status <= 599 && Number.isInteger(status);
}
