import { withDocsRoutes } from '../openapi/docs-routes.js';
import { healthPaths, withHealthRoutes } from '../health/health-routes.js';
import type { Lifecycle } from '../health/lifecycle.js';
import type { Container } from '../injection/container.js';
import type { ResolvedConfig } from '../resolved-config.js';
import type { KilnConfig } from '../server-config.js';
import { buildRouteTable, type RouteTable } from './route-table.js';

/** What the application's route table is built from. */
export interface ApplicationRoutesOptions {
  readonly config: KilnConfig;
  readonly resolved: ResolvedConfig;
  readonly container: Container;
  readonly lifecycle: Lifecycle;
}

/**
 * The controllers' routes with Kiln's own beside them: the health routes the document describes
 * are added before the docs routes check it, the others after.
 */
export function applicationRoutes({ config, resolved, container, lifecycle }: ApplicationRoutesOptions): RouteTable {
  const { health } = resolved;
  const built = buildRouteTable(
    config.controllers,
    config.middlewares ?? [],
    resolved.strictValidation,
    container,
    resolved.handlerTimeout,
    { origins: resolved.webSocketOrigins, trust: resolved.request.trustProxy },
  );
  container.assertResolved();
  const described = health?.openapi === true ? withHealthRoutes(built, health, lifecycle) : built;
  // The served document must describe errors as the server answers them (KILN060).
  const documented =
    config.docs === undefined
      ? described
      : withDocsRoutes(described, config.docs, health?.openapi === true ? healthPaths(health) : {}, resolved.request.errors.option);
  return health !== undefined && !health.openapi ? withHealthRoutes(documented, health, lifecycle) : documented;
}
