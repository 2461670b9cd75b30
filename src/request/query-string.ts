import { HttpError } from '../http-error.js';

export type QueryValues = Record<string, string | string[]>;

function decodeComponent(text: string, what: string): string {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
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
export function parseQueryString(search: string, what = 'query string'): QueryValues {
  const values: QueryValues = Object.create(null);
  if (search.length === 0) return values;
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const equals = search.indexOf('=', start);
      const hasValue = equals !== -1 && equals < end;
      const key = decodeComponent(search.slice(start, hasValue ? equals : end), what);
      const value = hasValue ? decodeComponent(search.slice(equals + 1, end), what) : '';
      const existing = values[key];
      if (existing === undefined) values[key] = value;
      else if (typeof existing === 'string') values[key] = [existing, value];
      else existing.push(value);
    }
    start = end + 1;
  }
  return values;
}
