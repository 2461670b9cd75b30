import { HttpError } from '../http-error.js';

export type QueryValues = Record<string, string | string[]>;

/** Whether a key or value has a `%` or a `+`: one loop, cheaper on short text than two `indexOf` calls. */
function needsDecoding(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25 /* % */ || code === 0x2b /* + */) return true;
  }
  return false;
}

function decodeComponent(text: string, what: string): string {
  if (!needsDecoding(text)) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new HttpError(400, `Malformed percent-encoding in ${what}`);
  }
}

/**
 * Parses `a=1&b=2&b=3` (without the `?`) into a null-prototype object; a repeated key becomes an
 * array in order of appearance. `+` is a space; malformed percent-encoding is a 400.
 * Used for query strings and urlencoded bodies.
 */
// hot path: a query without `%` or `+` (most) is scanned for them once, not key by key and value by value
export function parseQueryString(search: string, what = 'query string'): QueryValues {
  const values: QueryValues = Object.create(null);
  if (search.length === 0) return values;
  const plain = !needsDecoding(search);
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const equals = search.indexOf('=', start);
      const hasValue = equals !== -1 && equals < end;
      const rawKey = search.slice(start, hasValue ? equals : end);
      const rawValue = hasValue ? search.slice(equals + 1, end) : '';
      const key = plain ? rawKey : decodeComponent(rawKey, what);
      const value = plain ? rawValue : decodeComponent(rawValue, what);
      const existing = values[key];
      if (existing === undefined) values[key] = value;
      else if (typeof existing === 'string') values[key] = [existing, value];
      else existing.push(value);
    }
    start = end + 1;
  }
  return values;
}
