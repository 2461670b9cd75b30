import { kilnError } from './kiln-error.js';
import { buildRouteTable } from './app/route-table.js';
import { withDocsRoutes } from './openapi/docs-routes.js';
import { isFileSystemRefusal } from './openapi/file-system-refusal.js';
import { RequestPipeline } from './pipeline/request-pipeline.js';
import { FetchRequest } from './request/fetch-request.js';
import type { RequestCore } from './request/kiln-request.js';
import { Container } from './injection/container.js';
import type { RouteInfo } from './router/route-info.js';
import { answerWithResponse } from './response/web-response-answer.js';
import type { KilnConfig, KilnServer, ListenOptions } from './server-config.js';
import { assertReusePort } from './adapter/reuse-port.js';
import type { Listening, SocketAddressOf } from './adapter/listener.js';
import { runtimeListener } from './adapter/runtime-listener.js';
import { nodeHandlers } from './adapter/node/node-handler.js';
import { decisionTrace, logRouteTable } from './logging/debug-trace.js';
import { Logger } from './logging/logger.js';
import { healthPaths, withHealthRoutes } from './health/health-routes.js';
import { resolveConfig } from './resolved-config.js';
import type { Lifecycle } from './health/lifecycle.js';

export type { KilnConfig, KilnServer } from './server-config.js';

/** The reason of every open `req.signal` when close()'s shutdownTimeout passes. */
function shutdownDeadlinePassed(milliseconds: number): DOMException {
  return new DOMException(`The server is shutting down: its ${milliseconds} ms shutdown deadline passed`, 'AbortError');
}

/**
 * Creates a Kiln application: reads every controller's decorators into a frozen route table,
 * checks it (duplicate routes, missing compiled binders) and returns the server.
 *
 * @example
 * ```ts
 * const app = createServer({ controllers: [UsersController], middlewares: [rateLimit()], strictValidation: true });
 * await app.listen(3000);
 * ```
 */
export function createServer(config: KilnConfig): KilnServer {
  const lifecycle: Lifecycle = { closing: false };
  const resolved = resolveConfig(config, lifecycle);
  const { logger, request: options, health, shutdownTimeout } = resolved;
  // Services, controllers and class middlewares are created here, once, with their dependencies;
  // with an async factory, once its value exists (listen() and fetch() wait for it).
  // The application's logger is injectable as `Logger`, unless `injections` registers another.
  const container = new Container(config.injections ?? [], [{ token: Logger, value: logger }]);
  let pipeline: RequestPipeline | undefined;
  let routes: readonly RouteInfo[] = Object.freeze([]);
  const assemble = (): void => {
    const built = buildRouteTable(
      config.controllers,
      config.middlewares ?? [],
      resolved.strictValidation,
      container,
      resolved.handlerTimeout,
    );
    container.assertResolved();
    // Health routes the document describes are added before the docs routes check it, the others after.
    const described = health?.openapi === true ? withHealthRoutes(built, health, lifecycle) : built;
    const documented =
      config.docs === undefined ? described : withDocsRoutes(described, config.docs, health?.openapi === true ? healthPaths(health) : {});
    const table = health !== undefined && !health.openapi ? withHealthRoutes(documented, health, lifecycle) : documented;
    if (resolved.debug) logRouteTable(logger, table.routes);
    pipeline = new RequestPipeline(table, resolved.maxUrlLength, resolved.debug ? decisionTrace(logger) : undefined, resolved.telemetry);
    routes = Object.freeze(table.routes.map((route) => route.info));
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

  const handle = (req: RequestCore): unknown => pipeline!.handle(req);
  const { handler, checkContinue } = nodeHandlers({ ready, handle, options, maxHeadersCount: resolved.listener.maxHeadersCount });

  // the same pipeline in process: a web Request in, a web Response out (at once when the pipeline answers at once)
  const serve = (request: Request, socketAddress?: string | SocketAddressOf, context?: unknown): Response | Promise<Response> => {
    if (!started) return ready.then(() => serve(request, socketAddress, context));
    return answerWithResponse(new FetchRequest(request, options, socketAddress, context), handle);
  };

  // app.fetch always answers with a promise, as a fetch handler does.
  const fetch = async (request: Request): Promise<Response> => serve(request);

  let listening: Promise<Listening> | undefined;
  let closing: Promise<void> | undefined;

  return Object.freeze({
    handler,
    fetch,
    get routes() {
      return routes;
    },
    async listen(portOrOptions: number | ListenOptions = 3000, hostname?: string) {
      const given = typeof portOrOptions === 'object' && portOrOptions !== null ? portOrOptions : { port: portOrOptions, host: hostname };
      const port = given.port ?? 3000;
      const host = given.host;
      const reusePort = given.reusePort ?? false;
      if (typeof reusePort !== 'boolean') throw kilnError('KILN053', 'reusePortOption', reusePort);
      if (reusePort) assertReusePort();
      if (listening !== undefined) throw new Error('This Kiln server is already listening');
      // The listener of the runtime this runs on (node:http, Bun.serve, Deno.serve), loaded only there.
      const opening = (async () => {
        const start = await runtimeListener();
        await ready;
        return start({ limits: resolved.listener, handler, checkContinue, serve, reusePort, errors: options.errors }, port, host);
      })();
      listening = opening;
      return (await opening).address;
    },
    close() {
      lifecycle.closing = true;
      // shutdownTimeout bounds the whole close: in-flight requests, then the onClose() hooks in
      // the time left; a hook still running at the deadline is logged by name and abandoned.
      const deadline = Date.now() + (health?.drainDelay ?? 0) + shutdownTimeout;
      const abandoned = (hook: string, late: Promise<unknown>): void => {
        logger.error({ hook, shutdownTimeout }, `${hook} was still running ${shutdownTimeout} ms after close() began: abandoned`);
        late.catch((error) => logger.error({ err: error, hook }, `${hook} failed after it was abandoned`));
      };
      const closeServices = () => container.close(deadline, abandoned);
      if (listening === undefined) return (closing ??= closeServices());
      const stopping = listening;
      // With health.drainDelay, the server goes on serving (readiness 503) while the load balancer notices.
      const drained =
        health === undefined || health.drainDelay === 0
          ? stopping
          : stopping.then(async (server) => {
              await new Promise((resolve) => setTimeout(resolve, health.drainDelay));
              return server;
            });
      closing ??= drained
        .then(
          (server) => {
            // At the deadline, handlers still at work are told (req.signal) just before their connections are cut.
            const abortTimer = setTimeout(() => options.signals.abortAll(shutdownDeadlinePassed(shutdownTimeout)), shutdownTimeout);
            return server.close(shutdownTimeout).finally(() => clearTimeout(abortTimer));
          },
          () => {},
        )
        .then(closeServices);
      return closing;
    },
  });
}
