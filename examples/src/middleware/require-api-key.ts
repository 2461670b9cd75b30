import { Header, HttpError, Middleware } from '@kiln/core';

/** Write routes need the shop's API key. The `use` parameters are bound like a handler's. */
@Middleware()
export class RequireApiKey {
  /**
   * @param key the shop's API key
   * @response 401 Missing or wrong x-api-key header
   */
  use(@Header('x-api-key') key?: string) {
    if (key !== (process.env.BOOKSHOP_API_KEY ?? 'let-me-in')) throw new HttpError(401, 'Missing or wrong x-api-key header');
  }
}
