import { HttpError } from '../http-error.js';
import { KilnError, kilnError } from '../kiln-error.js';
import { kProblemMembers } from '../symbols.js';
import type { ErrorFormat } from './error-format.js';
import { reasonPhrase } from './reason-phrase.js';

export interface ErrorOutcome {
  status: number;
  body: string;
  /** True when the error was not a usable HttpError: it is a bug to log, and its details stay private. */
  unexpected: boolean;
  /** What to report when `unexpected`: the error itself, or a KilnError saying why it could not be used. */
  reported: unknown;
}

export function errorBody(status: number, message: string, data?: unknown): string {
  const body: { error: string; message: string; data?: unknown } = { error: reasonPhrase(status) ?? 'Error', message };
  if (data !== undefined) body.data = data;
  return JSON.stringify(body);
}

function internal(format: ErrorFormat, path: string | undefined, reported: unknown): ErrorOutcome {
  return { status: 500, body: format.body(500, 'Internal Server Error', undefined, { instance: path }), unexpected: true, reported };
}

function withCause(error: KilnError, cause: unknown): KilnError {
  error.cause = cause;
  return error;
}

/** A problem member an HttpError (or a subclass written in JavaScript) sets: used only when it is a string. */
function member(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The error body of `format` for an HttpError: `{ "error": <reason phrase>, "message": <message> }`
 * (+ `data`), or problem details whose `instance` is `path` unless the error names one; a generic
 * 500 for anything else, so that no message or stack of an internal error ever reaches the client.
 * Never throws: a thrown value whose traps throw (a hostile Proxy) or an HttpError-like object with
 * an impossible status becomes a reported 500.
 */
export function errorOutcome(error: unknown, format: ErrorFormat, path?: string): ErrorOutcome {
  try {
    if (!(error instanceof HttpError)) return internal(format, path, error);
    const status = error.status;
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      const shown = typeof status === 'number' ? String(status) : typeof status;
      return internal(format, path, withCause(kilnError('KILN042', 'httpErrorStatus', shown), error));
    }
    const message = String(error.message);
    const parts = { type: member(error.type), title: member(error.title), instance: member(error.instance) ?? path };
    const data =
      error.data === undefined && format.option === 'problem+json'
        ? (error as { [kProblemMembers]?: unknown })[kProblemMembers]
        : error.data;
    try {
      return { status, body: format.body(status, message, data, parts), unexpected: false, reported: undefined };
    } catch {
      // data that cannot be serialised: keep the status and message
      return { status, body: format.body(status, message, undefined, parts), unexpected: false, reported: undefined };
    }
  } catch (failure) {
    return internal(format, path, withCause(kilnError('KILN044', 'uninspectable', describeFailure(failure)), failure));
  }
}

function describeFailure(failure: unknown): string {
  try {
    return failure instanceof Error ? `${failure.name}: ${failure.message}` : typeof failure;
  } catch {
    return 'its inspection threw';
  }
}
