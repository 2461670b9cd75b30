// `createServer({ debug: true })`: the route table once at start-up, and the router's decision for
// every request, as `debug` lines of the application's logger.
import type { CompiledRoute } from '../app/route-table.js';
import type { RequestCore } from '../request/kiln-request.js';
import type { RouteDecision } from '../router/route-decision.js';
import { kTarget } from '../symbols.js';
import type { Logger } from './logger.js';

/** Called by the pipeline with each request's route decision, before any middleware runs. */
export type DecisionTrace = (req: RequestCore, decision: RouteDecision<CompiledRoute>) => void;

/** One line per route: `GET /books/:id → BooksController.get`, with the middlewares it runs. */
export function logRouteTable(logger: Logger, routes: readonly CompiledRoute[]): void {
  // (a hand-made logger may lack isLevelEnabled: then its lines are written and it filters them)
  if (logger.isLevelEnabled?.('debug') === false) {
    logger.warn(`debug: true, but the logger's level is '${logger.level}': set it to 'debug' to see the route table and route decisions`);
    return;
  }
  logger.debug({ routes: routes.length }, 'route table');
  for (const route of routes) {
    const { method, path } = route.info;
    logger.debug(
      { route: { method, path, handler: route.name, middlewares: route.middlewares.length } },
      `${method} ${path} → ${route.name}`,
    );
  }
}

const outcome = { 'not-found': '404 no route', 'method-not-allowed': '405 method not allowed', options: '204 OPTIONS' } as const;

/** The trace the pipeline calls for each request. */
export function decisionTrace(logger: Logger): DecisionTrace {
  return (req, decision) => {
    const request = { id: req.id, method: req.method, url: req[kTarget] };
    if (decision.route !== undefined) {
      const { method, path } = decision.route.info;
      logger.debug(
        { req: request, route: { method, path, handler: decision.route.name }, params: decision.params ?? {} },
        `${req.method} ${req.path} → ${decision.route.name} (${method} ${path})`,
      );
    } else {
      logger.debug({ req: request, route: null, allow: decision.allow }, `${req.method} ${req.path} → ${outcome[decision.kind]}`);
    }
  };
}
