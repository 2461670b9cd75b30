// What a call of a generated client answers: the data of a success, or one of the route's
// declared errors as a value (discriminated by `status`); an answer the route does not declare
// is thrown as a ClientError.

/** A success: `data` is the route's return type as the server sends it (JSON: a `Date` is its ISO string). */
export interface Ok<Status extends number, Data> {
  readonly ok: true;
  readonly status: Status;
  readonly data: Data;
  readonly error?: undefined;
  /** The answer itself (headers; its body has been read unless `data` is the `Response`). */
  readonly response: Response;
}

/** A declared error of the route: `status` tells which, `error` is its body. */
export interface Failed<Status extends number, Body> {
  readonly ok: false;
  readonly status: Status;
  readonly data?: undefined;
  readonly error: Body;
  readonly response: Response;
}

/** An answer the route does not declare (a 500, a proxy's 502, ...): thrown by the call. */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly status: number,
    /** The body: parsed JSON when the answer is JSON, else its text. */
    readonly body: unknown,
    readonly response: Response,
  ) {
    super(`${response.url ? `${response.url}: ` : ''}the server answered ${status}, which this route does not declare`);
  }
}
