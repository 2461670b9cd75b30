import { firstText, type RawValue } from './raw-value.js';

/** A `string` parameter: the text as sent (the first occurrence of a repeated query key). */
export function toText(raw: RawValue): string | undefined {
  return firstText(raw);
}
