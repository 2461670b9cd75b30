import { HttpError } from '../http-error.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { firstText, type RawValue } from './raw-value.js';
import { parseBoolean } from './to-boolean.js';
import { parseEnum } from './to-enum.js';
import { parseNumber } from './to-number.js';

// `@Body('name') name: string | number | boolean | 'a' | 'b' | Enum`: checked by Kiln's own rules,
// no typia. A JSON value is checked as it is (a number field holding "5" is a failure); a form or
// text/* value, always text, is converted like a query parameter. Absent (`undefined`/`null`)
// values pass through: `required` has already dealt with them.

/** Whether the body was text: an urlencoded form or `text/*` (its values are strings to convert). */
export function isTextBody(req: KilnRequest): boolean {
  const type = req.headers.get('content-type');
  if (type === null) return false;
  const media = type.trimStart().toLowerCase();
  return media.startsWith('application/x-www-form-urlencoded') || media.startsWith('text/');
}

/** A `string` body field. */
export function bodyText(req: KilnRequest, value: unknown, name: string, strict: boolean): unknown {
  if (value === undefined || value === null) return value;
  if (isTextBody(req)) return firstText(value as RawValue);
  return typeof value === 'string' ? value : failed(value, name, 'string', strict);
}

/** A `number` body field: a JSON number as it is; form text converted (`NaN`, or with `strict` a 400). */
export function bodyNumber(req: KilnRequest, value: unknown, name: string, strict: boolean): unknown {
  if (value === undefined || value === null) return value;
  if (isTextBody(req)) return parseNumber(firstText(value as RawValue) ?? '', label(name), strict);
  return typeof value === 'number' ? value : failed(value, name, 'number', strict);
}

/** A `boolean` body field: a JSON boolean as it is; form text `true`/`1` is true, anything else false. */
export function bodyBoolean(req: KilnRequest, value: unknown, name: string, strict: boolean): unknown {
  if (value === undefined || value === null) return value;
  if (isTextBody(req)) return parseBoolean(firstText(value as RawValue));
  return typeof value === 'boolean' ? value : failed(value, name, 'boolean', strict);
}

/** A literal-union or enum body field: a JSON value must be one of `allowed` as it is; form text as a query parameter. */
export function bodyEnum(req: KilnRequest, value: unknown, name: string, strict: boolean, allowed: readonly (string | number)[]): unknown {
  if (value === undefined || value === null) return value;
  if (isTextBody(req)) return parseEnum(firstText(value as RawValue) ?? '', label(name), strict, allowed);
  return allowed.includes(value as string | number) ? value : failed(value, name, `one of [${allowed.join(', ')}]`, strict);
}

/** `name` for a field, the whole body's name in messages for `@Body()`. */
function label(name: string): string {
  return name === '' ? 'body' : name;
}

/**
 * With `strict`, a JSON value of the wrong type is a 400 naming the field and showing the value as
 * JSON (`Parameter 'age' expected number, got "5"`); without it the value passes, as every body does.
 */
function failed(value: unknown, name: string, expected: string, strict: boolean): unknown {
  if (!strict) return value;
  const shown = JSON.stringify(value) ?? String(value);
  const got = shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
  throw new HttpError(400, `${name === '' ? 'Request body' : `Parameter '${name}'`} expected ${expected}, got ${got}`);
}
