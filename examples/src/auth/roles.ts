import { createRouteMetadata } from '@kiln/core';

/** What a staff key may do: a clerk adds books, a manager also removes them. */
export type Role = 'clerk' | 'manager';

/**
 * `@Roles('manager')` on a route (or a controller): the roles allowed to call it. Read by the
 * RequireApiKey guard from `req.route`; a method's roles replace its class's.
 */
export const Roles = createRouteMetadata((...roles: Role[]) => roles, { name: 'Roles' });
