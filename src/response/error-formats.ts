// The two error formats of `createServer({ errors })` and the choice between them (KILN058).
import { kilnError } from '../kiln-error.js';
import { errorBody } from './error-body.js';
import type { ErrorFormat } from './error-format.js';
import { jsonContentType } from './json-body.js';
import { problemContentType, problemDetailsBody } from './problem-details.js';

/** `{ "error": <reason phrase>, "message": <message>, "data"?: <data> }`, `application/json`. */
export const jsonErrors: ErrorFormat = Object.freeze({
  option: 'json',
  contentType: jsonContentType,
  body: (status: number, message: string, data?: unknown) => errorBody(status, message, data),
});

/** RFC 9457 problem details, `application/problem+json`. */
export const problemErrors: ErrorFormat = Object.freeze({
  option: 'problem+json',
  contentType: problemContentType,
  body: problemDetailsBody,
});

/** The format `errors` names (KILN058 for anything else). */
export function errorFormat(option: unknown): ErrorFormat {
  if (option === undefined || option === 'json') return jsonErrors;
  if (option === 'problem+json') return problemErrors;
  throw kilnError(
    'KILN058',
    'errorsOption',
    typeof option === 'string' ? JSON.stringify(option) : option === null ? 'null' : typeof option,
  );
}
