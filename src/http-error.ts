/**
 * An error that becomes an HTTP response with its own status. Throw it from a handler, a
 * middleware or a rate-limit handler; the body is `{ "error": <reason phrase>, "message": <message> }`
 * plus `"data"` when data is given.
 *
 * @example
 * ```ts
 * throw new HttpError(HttpCode.NOT_FOUND, `User ${id} not found`);
 * throw new HttpError(400, 'Invalid body', { errors });
 * ```
 */
export class HttpError extends Error {
  override name = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 400 to 599, got ${status}`);
    }
  }
}
