import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildRouteTable } from './app/route-table.js';
import { withDocsRoutes } from './docs/docs-routes.js';
import { KilnError } from './kiln-error.js';
import { isPromiseLike } from './pipeline/is-promise-like.js';
import { RequestPipeline } from './pipeline/request-pipeline.js';
import { FetchRequest } from './request/fetch-request.js';
import type { KilnRequest, RequestOptions } from './request/kiln-request.js';
import { NodeRequest } from './request/node-request.js';
import { compileTrustProxy } from './request/client-address.js';
import { answerClientError } from './response/client-error.js';
import { writeError, writeValue } from './response/node-response.js';
import { errorToWebResponse, finalWebResponse, valueToWebResponse } from './response/web-response.js';
import type { KilnConfig, KilnServer } from './server-config.js';

export type { KilnConfig, KilnServer } from './server-config.js';

const defaultMaxBodySize = 1024 * 1024;
const defaultMaxUrlLength = 8 * 1024;

function requestOptions(config: KilnConfig): RequestOptions {
  const maxBodySize = config.maxBodySize ?? defaultMaxBodySize;
  if (!Number.isInteger(maxBodySize) || maxBodySize < 0) throw new KilnError('KILN007', `maxBodySize must be a whole number of bytes, got ${maxBodySize}`);
  const onError = config.onError ?? ((error: unknown, req: KilnRequest) => console.error(`[kiln] ${req.method} ${req.path}:`, error));
  const report = (error: unknown, req: KilnRequest): void => {
    try {
      onError(error, req);
    } catch (failure) {
      console.error(`[kiln] onError threw while reporting an error of ${req.method} ${req.path}:`, failure);
    }
  };
  return Object.freeze({ maxBodySize, trustProxy: compileTrustProxy(config.trustProxy), report });
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
    throw new KilnError('KILN007', 'createServer(config) needs { controllers: [...] }');
  }
  const options = requestOptions(config);
  const built = buildRouteTable(config.controllers, config.middlewares ?? [], config.strictValidation ?? false);
  const table = config.docs === undefined ? built : withDocsRoutes(built, config.docs);
  const pipeline = new RequestPipeline(table, config.maxUrlLength ?? defaultMaxUrlLength);
  const routes = Object.freeze(table.routes.map((route) => route.info));

  // hot path: a request from a socket, through the pipeline, written straight to the socket
  const handler = (incoming: IncomingMessage, response: ServerResponse): void => {
    const req = new NodeRequest(incoming, response, options);
    let result: unknown;
    try {
      result = pipeline.handle(req);
    } catch (error) {
      writeError(req, error);
      return;
    }
    if (isPromiseLike(result)) {
      result.then(
        (value) => writeValue(req, value),
        (error) => writeError(req, error),
      );
    } else {
      writeValue(req, result);
    }
  };

  // the same pipeline in process: a web Request in, a web Response out
  const fetch = async (request: Request): Promise<Response> => {
    const req = new FetchRequest(request, options);
    try {
      return finalWebResponse(req, valueToWebResponse(req, await pipeline.handle(req)));
    } catch (error) {
      return errorToWebResponse(req, error);
    }
  };

  let server: http.Server | undefined;
  let closing: Promise<void> | undefined;

  return Object.freeze({
    handler,
    fetch,
    routes,
    listen(port = 3000, host?: string) {
      if (server !== undefined) return Promise.reject(new Error('This Kiln server is already listening'));
      const headersTimeout = config.headersTimeout ?? 10_000;
      const created = http.createServer(
        {
          headersTimeout,
          requestTimeout: config.requestTimeout ?? 30_000,
          keepAliveTimeout: config.keepAliveTimeout ?? 5_000,
          maxHeaderSize: config.maxHeaderSize ?? 16 * 1024,
          // Node enforces the two timeouts above only this often (30 s by default).
          connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
        },
        handler,
      );
      created.on('clientError', answerClientError);
      server = created;
      return new Promise<{ port: number; host: string }>((resolve, reject) => {
        created.once('error', reject);
        created.listen(port, host, () => {
          created.off('error', reject);
          const address = created.address() as AddressInfo;
          resolve({ port: address.port, host: address.address });
        });
      });
    },
    close() {
      if (server === undefined) return Promise.resolve();
      const closingServer = server;
      closing ??= new Promise<void>((resolve) => {
        // Idle keep-alive connections are closed at once and again as in-flight ones finish;
        // whatever is still open after the grace period is cut.
        const sweep = setInterval(() => closingServer.closeIdleConnections(), 50);
        const grace = setTimeout(() => closingServer.closeAllConnections(), config.shutdownTimeout ?? 10_000);
        sweep.unref();
        grace.unref();
        closingServer.close(() => {
          clearInterval(sweep);
          clearTimeout(grace);
          resolve();
        });
        closingServer.closeIdleConnections();
      });
      return closing;
    },
  });
}
