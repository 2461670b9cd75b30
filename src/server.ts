import { buildRouteTable } from './app/route-table.js';
import { withDocsRoutes } from './openapi/docs-routes.js';
import { kilnError } from './kiln-error.js';
import { isFileSystemRefusal } from './openapi/file-system-refusal.js';
import { RequestPipeline } from './pipeline/request-pipeline.js';
import { FetchRequest } from './request/fetch-request.js';
import type { KilnRequest, RequestCore, RequestOptions } from './request/kiln-request.js';
import { compileTrustProxy } from './request/client-address.js';
import { uploadLimits } from './request/upload-options.js';
import { Container } from './injection/container.js';
import type { RouteInfo } from './router/route-info.js';
import { answerWithResponse } from './response/web-response-answer.js';
import type { KilnConfig, KilnServer, ListenOptions } from './server-config.js';
import { assertReusePort } from './adapter/reuse-port.js';
import type { Listening, SocketAddressOf } from './adapter/listener.js';
import { runtimeListener } from './adapter/runtime-listener.js';
import { nodeHandlers } from './adapter/node/node-handler.js';
import { isLogger, Logger } from './logging/logger.js';
import { createLogger } from './logging/create-logger.js';
import { decisionTrace, logRouteTable } from './logging/debug-trace.js';
import { RequestSignals } from './request/request-signals.js';
import type { Lifecycle } from './health/lifecycle.js';
import { healthPaths, healthPlan, withHealthRoutes } from './health/health-routes.js';
import { handlerTimeoutValue } from './decorators/handler-timeout.js';

export type { KilnConfig, KilnServer } from './server-config.js';

const defaultMaxBodySize = 1024 * 1024;
const defaultMaxUrlLength = 8 * 1024;
const defaultMaxBodyDepth = 64;
const defaultSendTimeout = 30_000;
const defaultMaxHeadersCount = 1000;
const defaultShutdownTimeout = 10_000;

function wholeNumberOption(name: string, value: unknown, least: number): number {
  if (!Number.isInteger(value) || (value as number) < least) throw kilnError('KILN007', 'wholeNumber', name, least, value);
  return value as number;
}

/** The reason of every open `req.signal` when close()'s shutdownTimeout passes. */
function shutdownDeadlinePassed(milliseconds: number): DOMException {
  return new DOMException(`The server is shutting down: its ${milliseconds} ms shutdown deadline passed`, 'AbortError');
}

/** The logger `config.logger` names, or the one Kiln builds from its options. */
function applicationLogger(config: KilnConfig): Logger {
  if (isLogger(config.logger)) return config.logger;
  if (config.debug !== undefined && typeof config.debug !== 'boolean') throw kilnError('KILN007', 'debug', config.debug);
  const options = config.logger ?? {};
  return createLogger(config.debug === true && options !== null && options.level === undefined ? { ...options, level: 'debug' } : options);
}

function requestOptions(config: KilnConfig, logger: Logger, lifecycle: Lifecycle): RequestOptions {
  const maxBodySize = config.maxBodySize ?? defaultMaxBodySize;
  if (!Number.isInteger(maxBodySize) || maxBodySize < 0) throw kilnError('KILN007', 'maxBodySize', maxBodySize);
  const onError =
    config.onError ??
    ((error: unknown, req: KilnRequest) =>
      // The path only, as ever: a query string may carry what must not reach a log.
      logger.error({ err: error, req: { id: req.id, method: req.method, path: req.path } }, 'request failed'));
  const report = (error: unknown, req: KilnRequest): void => {
    try {
      onError(error, req);
    } catch (failure) {
      try {
        logger.error({ err: failure, req: { method: req.method, url: req.path } }, 'onError threw while reporting an error');
      } catch {
        // nothing left to report to
      }
    }
  };
  const maxBodyDepth = wholeNumberOption('maxBodyDepth', config.maxBodyDepth ?? defaultMaxBodyDepth, 1);
  const sendTimeout = wholeNumberOption('sendTimeout', config.sendTimeout ?? defaultSendTimeout, 0);
  const uploads = uploadLimits(config.uploads);
  return Object.freeze({
    maxBodySize,
    trustProxy: compileTrustProxy(config.trustProxy),
    report,
    maxBodyDepth,
    sendTimeout,
    logger,
    uploads,
    signals: new RequestSignals(),
    lifecycle,
  });
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
  if (config === null || typeof config !== 'object' || !Array.isArray(config.controllers)) {
    throw kilnError('KILN007', 'noControllers');
  }
  const logger = applicationLogger(config);
  const lifecycle: Lifecycle = { closing: false };
  const options = requestOptions(config, logger, lifecycle);
  const health = config.health === undefined ? undefined : healthPlan(config.health, logger);
  const maxHeadersCount = wholeNumberOption('maxHeadersCount', config.maxHeadersCount ?? defaultMaxHeadersCount, 1);
  const handlerTimeout = handlerTimeoutValue('handlerTimeout', config.handlerTimeout ?? 0);
  const shutdownTimeout = wholeNumberOption('shutdownTimeout', config.shutdownTimeout ?? defaultShutdownTimeout, 0);
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
      config.strictValidation ?? false,
      container,
      handlerTimeout,
    );
    container.assertResolved();
    // Health routes the document describes are added before the docs routes check it, the others after.
    const described = health?.openapi === true ? withHealthRoutes(built, health, lifecycle) : built;
    const documented =
      config.docs === undefined ? described : withDocsRoutes(described, config.docs, health?.openapi === true ? healthPaths(health) : {});
    const table = health !== undefined && !health.openapi ? withHealthRoutes(documented, health, lifecycle) : documented;
    if (config.debug === true) logRouteTable(logger, table.routes);
    pipeline = new RequestPipeline(
      table,
      config.maxUrlLength ?? defaultMaxUrlLength,
      config.debug === true ? decisionTrace(logger) : undefined,
    );
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
  const { handler, checkContinue } = nodeHandlers({ ready, handle, options, maxHeadersCount });

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
        return start({ config, handler, checkContinue, serve, maxHeadersCount, reusePort }, port, host);
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
