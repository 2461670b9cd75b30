/**
 * What a binder reads from the request before converting it: a route parameter (`string`), a
 * query parameter (`string`, or `string[]` when repeated), a header (`string | null` from
 * `Headers.get`), or nothing.
 */
export type RawValue = string | readonly string[] | null | undefined;

/** The one text of a scalar parameter: the first occurrence of a repeated query key; `undefined` when absent. */
export function firstText(raw: RawValue): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  return typeof raw === 'string' ? raw : raw[0];
}

/** Every occurrence of a query key or route parameter, as a list (`[]` when absent). */
export function listOf(raw: RawValue): readonly string[] {
  if (raw === null || raw === undefined) return [];
  return typeof raw === 'string' ? [raw] : raw;
}

/**
 * The items of a header read as a list. Repeated header lines arrive joined by commas, so a list
 * header is split on commas and each item trimmed; an empty header is `[]`.
 */
export function splitHeader(raw: string | null | undefined): string[] {
  if (raw === null || raw === undefined) return [];
  const items: string[] = [];
  for (const item of raw.split(',')) {
    const trimmed = item.trim();
    if (trimmed !== '') items.push(trimmed);
  }
  return items;
}
