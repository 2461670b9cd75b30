import { describeMiddleware, Header, HttpError, Inject, Logger, Middleware, Req, type KilnRequest } from '@kiln/core';
import { Roles, type Role } from '../auth/roles.js';

/** The shop's staff keys and the roles each one has (a real shop would look them up in a database). */
const staffKeys: Record<string, readonly Role[]> = {
  [process.env.BOOKSHOP_API_KEY ?? 'let-me-in']: ['clerk', 'manager'],
  [process.env.BOOKSHOP_CLERK_KEY ?? 'clerk-key']: ['clerk'],
};

/**
 * Write routes need a staff key whose roles include one the route's `@Roles(...)` names. The
 * `use` parameters are bound like a handler's; the logger is injected.
 */
@Middleware()
export class RequireApiKey {
  constructor(@Inject(Logger) private readonly log: Logger) {}

  /**
   * @param key a staff API key
   * @response 401 Missing or wrong x-api-key header
   * @response 403 This key's role may not do this
   */
  use(@Header('x-api-key') key: string | undefined, @Req() req: KilnRequest) {
    const roles = key === undefined ? undefined : staffKeys[key];
    if (roles === undefined) throw new HttpError(401, 'Missing or wrong x-api-key header');
    const allowed = Roles.get(req.route);
    if (allowed !== undefined && !allowed.some((role) => roles.includes(role))) {
      req.log.warn({ roles, allowed }, 'refused: role');
      throw new HttpError(403, `This needs the role ${allowed.join(' or ')}`);
    }
  }
}

// The docs page's Authorize button asks for the key once, and sends it with every write request.
describeMiddleware(RequireApiKey, {
  security: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A staff key' } },
});
