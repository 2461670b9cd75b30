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
 *
 * A route declares the errors it answers with `@throws {HttpError<404, { id: number }>}` in its
 * JSDoc: the status and the type of `data` go into the OpenAPI document and the typed client.
 */
export class HttpError<Status extends number = number, Data = unknown> extends Error {
  override name = 'HttpError';

  constructor(
    readonly status: Status,
    message: string,
    readonly data?: Data,
  ) {
    super(message);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 400 to 599, got ${status}`);
    }
  }
}
