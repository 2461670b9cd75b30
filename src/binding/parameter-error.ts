import { HttpError } from '../http-error.js';
import { kProblemMembers } from '../symbols.js';

/** The failure a 400 names, as problem details list it (`errors`), like a body's failures. */
function withFailure(error: HttpError, path: string, expected: string, value?: string): HttpError {
  const failure = value === undefined ? { path, expected } : { path, expected, value };
  Object.defineProperty(error, kProblemMembers, { value: { errors: [failure] } });
  return error;
}

/**
 * The 400 a strict binder throws when a value does not convert: `Parameter 'id' expected number,
 * got 'x'`; an array item is named by its zero-based index: `Parameter 'ids[1]' ...`.
 */
export function conversionError(name: string, expected: string, value: string, index = -1): HttpError {
  const label = index < 0 ? name : `${name}[${index}]`;
  return withFailure(new HttpError(400, `Parameter '${label}' expected ${expected}, got '${value}'`), label, expected, value);
}

/** The 400 a strict binder throws when a required value is absent. */
export function requiredError(name: string): HttpError {
  return withFailure(new HttpError(400, `Parameter '${name}' is required`), name, 'a value');
}
