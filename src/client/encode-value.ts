// How a value of a query, path or header parameter becomes request text: the inverse of the
// server's conversions (src/binding/), so that a value the client sends binds to the same value.

/** One item as text: a `Date` as its ISO form (`new Date(text)` reads it back), an object or tuple as JSON, anything else by `String`. */
export function itemText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * The texts a parameter is sent as: one per item of an array (a query key repeated, a header's
 * comma-separated list), one for anything else; a JSON-typed parameter (`json`), tuples
 * included, is one JSON text. `undefined` and `null` send nothing.
 */
export function parameterTexts(value: unknown, json: boolean): string[] {
  if (value === undefined || value === null) return [];
  if (json) return [JSON.stringify(value)];
  if (Array.isArray(value)) return value.filter((item) => item !== undefined && item !== null).map(itemText);
  return [itemText(value)];
}

/** A `multipart/form-data` body: each file as a file part, each array as repeated parts, other fields as text. */
export function formDataOf(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof Blob) form.append(name, item);
      else form.append(name, itemText(item));
    }
  }
  return form;
}
