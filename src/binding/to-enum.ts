import { conversionError } from './parameter-error.js';
import { firstText, type RawValue } from './raw-value.js';

/**
 * Checks one text against the allowed values of an enum or literal union. A value equal to an
 * allowed string is returned unchanged; for numeric members a numeric text is converted to its
 * number first. On failure: `null`, or with `strict` a 400
 * `Parameter '<name>' expected one of [a, b, c], got '<text>'`.
 */
export function parseEnum(
  text: string,
  name: string,
  strict: boolean,
  allowed: readonly (string | number)[],
  index = -1,
): string | number | null {
  if (allowed.includes(text)) return text;
  if (text.trim() !== '') {
    const number = Number(text);
    if (allowed.includes(number)) return number;
  }
  if (strict) throw conversionError(name, `one of [${allowed.join(', ')}]`, text, index);
  return null;
}

/** An enum or literal-union parameter; `undefined` when absent. */
export function toEnum(
  raw: RawValue,
  name: string,
  strict: boolean,
  allowed: readonly (string | number)[],
): string | number | null | undefined {
  const text = firstText(raw);
  return text === undefined ? undefined : parseEnum(text, name, strict, allowed);
}

/** An array of enum items; a failing item is named by its index. */
export function toEnumArray(
  items: readonly string[],
  name: string,
  strict: boolean,
  allowed: readonly (string | number)[],
): (string | number | null)[] {
  const values: (string | number | null)[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) values[i] = parseEnum(items[i]!, name, strict, allowed, i);
  return values;
}
