// How a server writes its error answers: the spec's JSON body (the default) or RFC 9457 problem
// details, chosen once by `createServer({ errors })` and used by every writer of an error answer
// (the pipeline's, each transport's own refusals, a package's through req's problem hook).
import { kilnError } from '../kiln-error.js';
import { errorBody } from './error-body.js';
import { jsonContentType } from './json-body.js';
import { problemContentType, problemDetailsBody, type ProblemParts } from './problem-details.js';

/** The values of `createServer`'s `errors` option. */
export type ErrorsOption = 'json' | 'problem+json';

export interface ErrorFormat {
  readonly option: ErrorsOption;
  readonly contentType: string;
  /** The body of an error answer; `parts` matter to problem details only. Throws when `data` is not JSON. */
  body(status: number, message: string, data?: unknown, parts?: ProblemParts): string;
}

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
