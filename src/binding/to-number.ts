import { conversionError } from './parameter-error.js';
import { firstText, type RawValue } from './raw-value.js';

/**
 * Converts one text to a number. Blank text is not a number (plain `Number('')` would be 0).
 * On failure: `NaN`, or with `strict` a 400 `Parameter '<name>' expected number, got '<text>'`.
 */
export function parseNumber(text: string, name: string, strict: boolean, index = -1): number {
  const value = text.trim() === '' ? NaN : Number(text);
  // Infinity is no JSON number (it would be sent as null): strict mode refuses it as it refuses NaN.
  if (strict && !Number.isFinite(value)) throw conversionError(name, 'number', text, index);
  return value;
}

/** A `number` parameter; `undefined` when absent. */
export function toNumber(raw: RawValue, name: string, strict: boolean): number | undefined {
  const text = firstText(raw);
  return text === undefined ? undefined : parseNumber(text, name, strict);
}

/** A `number[]` parameter; a failing item is named by its index: `Parameter 'ids[1]' expected number, got 'x'`. */
export function toNumberArray(items: readonly string[], name: string, strict: boolean): number[] {
  const values: number[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) values[i] = parseNumber(items[i]!, name, strict, i);
  return values;
}
