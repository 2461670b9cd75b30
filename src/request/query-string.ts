import { HttpError } from '../http-error.js';

export type QueryValues = Record<string, string | string[]>;

function decodeComponent(text: string, what: string): string {
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
// hot path: one pass over the characters finds each pair's end, its first `=` and whether its key
// or value needs decoding (a `%` or a `+`), instead of two `indexOf` calls and two scans per pair
export function parseQueryString(search: string, what = 'query string'): QueryValues {
  const values: QueryValues = Object.create(null);
  const length = search.length;
  let start = 0;
  let equals = -1;
  let keyEncoded = false;
  let valueEncoded = false;
  for (let i = 0; i <= length; i++) {
    const code = i === length ? 0x26 /* & */ : search.charCodeAt(i);
    if (code === 0x26 /* & */) {
      if (i > start) {
        let key = search.slice(start, equals === -1 ? i : equals);
        let value = equals === -1 ? '' : search.slice(equals + 1, i);
        if (keyEncoded) key = decodeComponent(key, what);
        if (valueEncoded) value = decodeComponent(value, what);
        const existing = values[key];
        if (existing === undefined) values[key] = value;
        else if (typeof existing === 'string') values[key] = [existing, value];
        else existing.push(value);
      }
      start = i + 1;
      equals = -1;
      keyEncoded = false;
      valueEncoded = false;
    } else if (code === 0x3d /* = */) {
      if (equals === -1) equals = i;
    } else if (code === 0x25 /* % */ || code === 0x2b /* + */) {
      if (equals === -1) keyEncoded = true;
      else valueEncoded = true;
    }
  }
  return values;
}
