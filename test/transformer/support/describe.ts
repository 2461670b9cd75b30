/** A JSON-safe picture of a bound value, so tests can tell NaN, Invalid Date, undefined and numbers from strings apart. */
export function describe(value: unknown): unknown {
  if (value === undefined) return '(undefined)';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : `Date(${value.toISOString()})`;
  if (Array.isArray(value)) return value.map(describe);
  return value;
}

/** What every test route answers: the bound value, described. */
export function out(value: unknown): { value: unknown } {
  return { value: describe(value) };
}
