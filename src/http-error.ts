import { kilnError } from './kiln-error.js';

/**
 * What an HttpError adds to its RFC 9457 problem details when the server answers errors as
 * `application/problem+json` (`createServer({ errors: 'problem+json' })`); the default error body
 * has no place for them and leaves them out.
 */
export interface ProblemOptions {
  /** A URI reference naming the kind of problem (`https://example.com/problems/out-of-credit`). Default `about:blank`: the status says it all. */
  readonly type?: string;
  /** A short summary of the problem type, the same for every occurrence. Default: the status's reason phrase. */
  readonly title?: string;
  /** A URI reference naming this occurrence. Default: the request's path. */
  readonly instance?: string;
}

// What RFC 3986 never allows in a URI reference besides controls: spaces and the characters it excludes.
const excluded = /[\s<>"{}|\\^`]/;

function isUriReference(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return value !== '' && !excluded.test(value);
}

function problemMember(name: keyof ProblemOptions, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw kilnError('KILN059', 'notAString', name, value === null ? 'null' : typeof value);
  if (name === 'type' && !isUriReference(value)) throw kilnError('KILN059', 'typeNotUri', value);
  return value;
}

/**
 * An error that becomes an HTTP response with its own status. Throw it from a handler, a
 * middleware or a rate-limit handler; the body is `{ "error": <reason phrase>, "message": <message> }`
 * plus `"data"` when data is given, or, with `createServer({ errors: 'problem+json' })`, RFC 9457
 * problem details: `detail` is the message, the members of `data` are extension members, and
 * `problem` gives the `type`, `title` and `instance`.
 *
 * @example
 * ```ts
 * throw new HttpError(HttpCode.NOT_FOUND, `User ${id} not found`);
 * throw new HttpError(400, 'Invalid body', { errors });
 * throw new HttpError(403, 'Your balance is 30, the book costs 50', { balance: 30 }, {
 *   type: 'https://example.com/problems/out-of-credit',
 *   title: 'You do not have enough credit',
 * });
 * ```
 *
 * A route declares the errors it answers with `@throws {HttpError<404, { id: number }>}` in its
 * JSDoc: the status and the type of `data` go into the OpenAPI document and the typed client.
 * A subclass may declare its problem type itself: `override readonly type = 'https://...'`.
 */
export class HttpError<Status extends number = number, Data = unknown> extends Error {
  override name = 'HttpError';
  /** The problem type (problem details only); `undefined` is `about:blank`. */
  readonly type: string | undefined;
  /** The problem's title (problem details only); `undefined` is the status's reason phrase. */
  readonly title: string | undefined;
  /** The occurrence (problem details only); `undefined` is the request's path. */
  readonly instance: string | undefined;

  constructor(
    readonly status: Status,
    message: string,
    readonly data?: Data,
    problem?: ProblemOptions,
  ) {
    super(message);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 400 to 599, got ${status}`);
    }
    this.type = problemMember('type', problem?.type);
    this.title = problemMember('title', problem?.title);
    this.instance = problemMember('instance', problem?.instance);
  }
}
