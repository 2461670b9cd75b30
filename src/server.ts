import type { KilnConfig, KilnServer } from './server-config.js';
import { startApplication } from './app/application.js';
import { fetchEntry } from './adapter/fetch-entry.js';
import { serverListener } from './adapter/server-listener.js';
import { nodeHandlers } from './adapter/node/node-handler.js';
import { gracefulClose } from './health/graceful-close.js';
import type { Lifecycle } from './health/lifecycle.js';
import { resolveConfig } from './resolved-config.js';
import { socketEntry } from './websocket/socket-entry.js';
import { OpenEventStreams } from './sse/open-event-streams.js';

export type { KilnConfig, KilnServer } from './server-config.js';

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
  const lifecycle: Lifecycle = { closing: false, eventStreams: new OpenEventStreams() };
  const resolved = resolveConfig(config, lifecycle);
  const { request: options, listener: limits } = resolved;
  const app = startApplication({ config, resolved, lifecycle });
  const { handler, checkContinue } = nodeHandlers({
    ready: app.ready,
    handle: app.handle,
    options,
    maxHeadersCount: limits.maxHeadersCount,
  });
  const sockets = socketEntry(app, resolved, config.webSocket);
  const serve = sockets.serving(fetchEntry(app, options));
  const target = {
    limits,
    handler,
    checkContinue,
    serve,
    errors: options.errors,
    webSocket: resolved.webSocket,
    // Read once the application has started: whether it has @WebSocket routes is known then.
    get upgrade() {
      return app.hasSocketRoutes ? sockets.upgrade : undefined;
    },
  };
  const listener = serverListener({ ready: app.ready, target });
  const close = gracefulClose({
    lifecycle,
    container: app.container,
    listening: () => listener.listening,
    health: resolved.health,
    shutdownTimeout: resolved.shutdownTimeout,
    signals: options.signals,
    logger: resolved.logger,
    closeSockets: (deadline) => sockets.open.closeAll(deadline),
  });
  return Object.freeze({
    handler,
    // app.fetch always answers with a promise, as a fetch handler does.
    fetch: async (request: Request): Promise<Response> => serve(request),
    get routes() {
      return app.routes;
    },
    listen: listener.listen,
    publish: (topic: string, message: unknown) => sockets.open.publish(topic, message),
    close,
  });
}
