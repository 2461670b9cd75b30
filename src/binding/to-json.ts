import { conversionError } from './parameter-error.js';
import { firstText, type RawValue } from './raw-value.js';

/** Parses one JSON text. On failure: `null`, or with `strict` a 400 `Parameter '<name>' expected valid JSON, got '<text>'`. */
export function parseJson(text: string, name: string, strict: boolean, index = -1): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (strict) throw conversionError(name, 'valid JSON', text, index);
    return null;
  }
}

/** An object-typed parameter sent as JSON text (`?filter={"age":3}`); `undefined` when absent. */
export function toJson(raw: RawValue, name: string, strict: boolean): unknown {
  const text = firstText(raw);
  return text === undefined ? undefined : parseJson(text, name, strict);
}

/** An array of object-typed items, each sent as JSON text. */
export function toJsonArray(items: readonly string[], name: string, strict: boolean): unknown[] {
  const values: unknown[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) values[i] = parseJson(items[i]!, name, strict, i);
  return values;
}
