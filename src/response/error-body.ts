import { STATUS_CODES } from 'node:http';
import { HttpError } from '../http-error.js';

export interface ErrorOutcome {
  status: number;
  body: string;
  /** True when the error was not an HttpError: it is a bug to log, and its details stay private. */
  unexpected: boolean;
}

export function errorBody(status: number, message: string, data?: unknown): string {
  const body: { error: string; message: string; data?: unknown } = { error: STATUS_CODES[status] ?? 'Error', message };
  if (data !== undefined) body.data = data;
  return JSON.stringify(body);
}

/**
 * `{ "error": <reason phrase>, "message": <message> }` (+ `data`) for an HttpError; a generic 500
 * for anything else, so that no message or stack of an internal error ever reaches the client.
 */
export function errorOutcome(error: unknown): ErrorOutcome {
  if (error instanceof HttpError) {
    try {
      return { status: error.status, body: errorBody(error.status, error.message, error.data), unexpected: false };
    } catch {
      // data that cannot be serialised: keep the status and message
      return { status: error.status, body: errorBody(error.status, error.message), unexpected: false };
    }
  }
  return { status: 500, body: errorBody(500, 'Internal Server Error'), unexpected: true };
}
