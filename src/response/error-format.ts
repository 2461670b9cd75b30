// How a server writes its error answers: Kiln's JSON error body (the default) or RFC 9457 problem
// details, chosen once by `createServer({ errors })` and used by every writer of an error answer
// (the pipeline's, each transport's own refusals, a package's through req's problem hook).
// The formats themselves are in error-formats.ts: this file holds only what their users name.
import type { ProblemParts } from './problem-details.js';

/** The values of `createServer`'s `errors` option. */
export type ErrorsOption = 'json' | 'problem+json';

export interface ErrorFormat {
  readonly option: ErrorsOption;
  readonly contentType: string;
  /** The body of an error answer; `parts` matter to problem details only. Throws when `data` is not JSON. */
  body(status: number, message: string, data?: unknown, parts?: ProblemParts): string;
}
