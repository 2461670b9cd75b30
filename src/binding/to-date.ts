import { conversionError } from './parameter-error.js';
import { firstText, type RawValue } from './raw-value.js';

/** Converts one text with `new Date(text)`. On failure: an Invalid Date, or with `strict` a 400. */
export function parseDate(text: string, name: string, strict: boolean, index = -1): Date {
  const value = new Date(text);
  if (strict && Number.isNaN(value.getTime())) throw conversionError(name, 'valid date', text, index);
  return value;
}

/** A `Date` parameter; `undefined` when absent. */
export function toDate(raw: RawValue, name: string, strict: boolean): Date | undefined {
  const text = firstText(raw);
  return text === undefined ? undefined : parseDate(text, name, strict);
}

/** A `Date[]` parameter; a failing item is named by its index. */
export function toDateArray(items: readonly string[], name: string, strict: boolean): Date[] {
  const values: Date[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) values[i] = parseDate(items[i]!, name, strict, i);
  return values;
}
