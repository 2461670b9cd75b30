import { isFileSystemRefusal } from '../openapi/file-system-refusal.js';
import { RequestPipeline } from '../pipeline/request-pipeline.js';
import type { RequestCore } from '../request/kiln-request.js';
import { Container } from '../injection/container.js';
import type { RouteInfo } from '../router/route-info.js';
import { decisionTrace, logRouteTable } from '../logging/debug-trace.js';
import { Logger } from '../logging/logger.js';
import type { Lifecycle } from '../health/lifecycle.js';
import type { ResolvedConfig } from '../resolved-config.js';
import type { KilnConfig } from '../server-config.js';
import { applicationRoutes } from './application-routes.js';

/** An application being started: its services, its request pipeline once assembled, and its routes. */
export interface Application {
  readonly container: Container;
  /** Settles once the factories and init hooks have run, or rejects with why the start failed. */
  readonly ready: Promise<void>;
  /** True once `ready` has fulfilled. */
  readonly started: boolean;
  /** Runs a request through the pipeline (only called once `ready` has fulfilled). */
  readonly handle: (req: RequestCore) => unknown;
  /** The frozen route table `app.routes` shows (empty until assembled). */
  readonly routes: readonly RouteInfo[];
  /** Whether a route is a `@WebSocket` route (false until assembled). */
  readonly hasSocketRoutes: boolean;
}

export interface StartApplicationOptions {
  readonly config: KilnConfig;
  readonly resolved: ResolvedConfig;
  readonly lifecycle: Lifecycle;
}

/**
 * Creates the services, controllers and class middlewares, once, with their dependencies, and
 * assembles the pipeline: at once, or once an async factory's value exists.
 */
export function startApplication({ config, resolved, lifecycle }: StartApplicationOptions): Application {
  const { logger } = resolved;
  // The application's logger is injectable as `Logger`, unless `injections` registers another.
  const container = new Container(config.injections ?? [], [{ token: Logger, value: logger }]);
  let pipeline: RequestPipeline | undefined;
  let routes: readonly RouteInfo[] = Object.freeze([]);
  let hasSocketRoutes = false;
  const assemble = (): void => {
    const table = applicationRoutes({ config, resolved, container, lifecycle });
    if (resolved.debug) logRouteTable(logger, table.routes);
    pipeline = new RequestPipeline(table, resolved.maxUrlLength, resolved.debug ? decisionTrace(logger) : undefined, resolved.telemetry);
    routes = Object.freeze(table.routes.map((route) => route.info));
    hasSocketRoutes = table.routes.some((route) => route.socket !== undefined);
  };
  const factories = container.runFactories();
  let refused: unknown;
  if (factories === undefined) {
    try {
      assemble();
    } catch (error) {
      // On Workers, docs as a path (or docs.ui) is reported when this server starts, not as the module
      // loads: a worker may import a module that creates the Node server and build its own.
      if (!isFileSystemRefusal(error)) throw error;
      refused = error;
    }
  }
  let started = false;
  const starting =
    refused !== undefined
      ? Promise.reject(refused)
      : factories === undefined
        ? container.init()
        : factories.then(assemble).then(() => container.init());
  const ready = starting.then(() => {
    started = true;
  });
  // A failed start is reported by listen() and fetch(), never as an unhandled rejection.
  ready.catch(() => {});
  return {
    container,
    ready,
    get started() {
      return started;
    },
    handle: (req) => pipeline!.handle(req),
    get routes() {
      return routes;
    },
    get hasSocketRoutes() {
      return hasSocketRoutes;
    },
  };
}
