import { Header, HttpError, Middleware } from '@kiln/core';

/** A class middleware whose `use` parameters are bound like a handler's. */
@Middleware()
export class RequireApiKey {
  use(@Header('x-api-key') key?: string) {
    if (key !== 'let-me-in') throw new HttpError(401, 'Missing or wrong x-api-key header');
  }
}
