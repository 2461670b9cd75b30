import { HttpError } from '../http-error.js';

/**
 * The 400 a strict binder throws when a value does not convert: `Parameter 'id' expected number,
 * got 'x'`; an array item is named by its zero-based index: `Parameter 'ids[1]' ...`.
 */
export function conversionError(name: string, expected: string, value: string, index = -1): HttpError {
  const label = index < 0 ? name : `${name}[${index}]`;
  return new HttpError(400, `Parameter '${label}' expected ${expected}, got '${value}'`);
}

/** The 400 a strict binder throws when a required value is absent. */
export function requiredError(name: string): HttpError {
  return new HttpError(400, `Parameter '${name}' is required`);
}
