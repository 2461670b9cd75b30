import { HttpError } from '../http-error.js';

/** The 413 for a request body over `maxBodySize`, whichever way it was found out. */
export function bodyTooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body is larger than the limit of ${limit} bytes`);
}
