import { HttpError } from '../http-error.js';

/** The 400 a strict binder throws when a value does not convert: `Parameter 'id' expected number, got 'x'`. */
export function conversionError(name: string, expected: string, value: string): HttpError {
  return new HttpError(400, `Parameter '${name}' expected ${expected}, got '${value}'`);
}

/** The 400 a strict binder throws when a required value is absent. */
export function requiredError(name: string): HttpError {
  return new HttpError(400, `Parameter '${name}' is required`);
}
