import { firstText, type RawValue } from './raw-value.js';

/** The text `true` or `1` is true; anything else, and an absent value, is false. Never fails. */
export function parseBoolean(text: string | undefined): boolean {
  return text === 'true' || text === '1';
}

/** A `boolean` parameter. */
export function toBoolean(raw: RawValue): boolean {
  return parseBoolean(firstText(raw));
}

/** A `boolean[]` parameter: each item converted like a `boolean`. */
export function toBooleanArray(items: readonly string[]): boolean[] {
  const values: boolean[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) values[i] = parseBoolean(items[i]);
  return values;
}
