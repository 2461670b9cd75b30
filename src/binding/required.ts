import { requiredError } from './parameter-error.js';

/**
 * Passes `raw` through; with `strict`, an absent value (`undefined` or `null`) for a parameter
 * whose declared type does not admit `undefined` is a 400 `Parameter '<name>' is required`.
 * Generated only for such parameters.
 */
export function required<T>(raw: T, name: string, strict: boolean): T {
  if (strict && (raw === undefined || raw === null)) throw requiredError(name);
  return raw;
}
