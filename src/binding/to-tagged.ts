import { conversionError } from './parameter-error.js';
import { firstText, type RawValue } from './raw-value.js';
import type { BodyValidator } from './validate-body.js';

/** How one text becomes the base type of a tagged parameter (`parseNumber`, or {@link parseText}). */
export type ParseText<T> = (text: string, name: string, strict: boolean, index: number) => T;

/** The text itself: the "conversion" of a tagged `string`. */
export function parseText(text: string): string {
  return text;
}

/**
 * A string or number with typia tags (`number & tags.Maximum<100>`): converted as its base type,
 * then, with `strict`, checked by the validator typia generated for the tagged type. A failure is
 * `Parameter 'limit' expected number & Maximum<100>, got '500'` (typia names the failing tags);
 * without `strict` the converted value passes, as for an untagged parameter. `undefined` when absent.
 */
export function toTagged<T>(raw: RawValue, name: string, strict: boolean, parse: ParseText<T>, check: BodyValidator): T | undefined {
  const text = firstText(raw);
  if (text === undefined) return undefined;
  const value = parse(text, name, strict, -1);
  if (strict) checkTags(value, text, name, check, -1);
  return value;
}

/** An array of tagged items (`(number & tags.Type<'int32'>)[]`): each converted, then checked; a failure names its index. */
export function toTaggedArray<T>(items: readonly string[], name: string, strict: boolean, parse: ParseText<T>, check: BodyValidator): T[] {
  const values: T[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    values[i] = parse(items[i]!, name, strict, i);
    if (strict) checkTags(values[i], items[i]!, name, check, i);
  }
  return values;
}

function checkTags(value: unknown, text: string, name: string, check: BodyValidator, index: number): void {
  const result = check(value);
  if (result.success) return;
  // typia stops at the first failing tag of an intersection and names it with the base type.
  throw conversionError(name, result.errors[0]?.expected ?? 'a valid value', text, index);
}
