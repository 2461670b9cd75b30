/**
 * Which response headers Kiln will send. Node's `writeHead` throws on a header it cannot send, so
 * every header that comes from application code is checked against the same rules first.
 */

// RFC 9110 5.6.2 token: the characters Node's own check (`validateHeaderName`) accepts.
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

// Names that passed, with their lower-case form: response header names are nearly always constants
// (`RateLimit-Limit`), so each is checked once. Bounded, in case an app makes names from data.
const checkedNames = new Map<string, string>();
const mostCheckedNames = 512;

/**
 * The lower-case form of a header name `setResponseHeader` may record, or `undefined` when the
 * name is not an HTTP token or is a connection or framing header (see isFramingHeader).
 */
// hot path: one Map lookup for a name seen before
export function recordableHeaderName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const known = checkedNames.get(name);
  if (known !== undefined) return known;
  if (!isHeaderName(name)) return undefined;
  const lowerName = name.toLowerCase();
  if (isFramingHeader(lowerName)) return undefined;
  if (checkedNames.size < mostCheckedNames) checkedNames.set(name, lowerName);
  return lowerName;
}

/** True when `name` is an HTTP token (`x-request-id`, `Set-Cookie`). */
export function isHeaderName(name: unknown): name is string {
  return typeof name === 'string' && token.test(name);
}

/** True when HTTP/1.1 can carry `value` unchanged: no CR, LF, NUL or other control character, nothing past U+00FF. */
// hot path: the rate limiter's three values on every request; a loop beats a regex on short strings
export function isHeaderValue(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // What Node's `validateHeaderValue` refuses: control characters except tab, DEL, anything past Latin-1.
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code > 0xff) return false;
  }
  return true;
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
