import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError } from './http-error.js';
import { dispatch, isPromiseLike, type CompiledRoute } from './dispatch.js';
import type { MiddlewareLike } from './middleware.js';
import { FetchRequest } from './request/fetch-request.js';
import type { KilnRequest, RequestCore, RequestOptions } from './request/kiln-request.js';
import { bodyTooLarge } from './request/body-limit.js';
import { NodeRequest } from './request/node-request.js';
import { answerClientError } from './response/client-error.js';
import { errorBody } from './response/error-body.js';
import { writeError, writeJson, writeValue } from './response/node-response.js';
import { errorToWebResponse, valueToWebResponse } from './response/web-response.js';
import { buildRouteTable, routeInfo, type RouteInfo } from './route-table.js';
import { Router, type PathMatch } from './router/router.js';
import { KilnError } from './kiln-error.js';
import type { DocsOptions } from './docs/docs-options.js';
import { docsRoutes } from './docs/docs-routes.js';

export interface KilnConfig {
  /** Controller classes (decorated with `@Controller`). */
  controllers: Function[];
  /** Application-level middlewares, run first for every route. */
  middlewares?: MiddlewareLike[];
  /** When true, a failed parameter conversion answers 400 instead of passing NaN/null/Invalid Date. Default false. */
  strictValidation?: boolean;
  /** Largest request body read, in bytes; larger ones answer 413. Default 1 MiB. */
  maxBodySize?: number;
  /** Trust `X-Forwarded-For` / `X-Real-IP` for `req.ip`. Default true (the spec's rule); set false when not behind a proxy. */
  trustProxy?: boolean;
  /** Called once for every error that is not an `HttpError` (the client gets a bare 500). Default: console.error. */
  onError?: (error: unknown, req: KilnRequest) => void;
  /** Longest request target (path + query) in bytes; longer ones answer 414. Default 8 KiB. */
  maxUrlLength?: number;
  /** Largest request line + headers in bytes (Node's parser limit); larger ones answer 431. Default 16 KiB. */
  maxHeaderSize?: number;
  /** Milliseconds to receive a request's headers (slowloris guard). Default 10 000. */
  headersTimeout?: number;
  /** Milliseconds to receive a whole request, body included. Default 30 000. */
  requestTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open. Default 5 000. */
  keepAliveTimeout?: number;
  /** Milliseconds `close()` lets in-flight requests finish before cutting their connections. Default 10 000. */
  shutdownTimeout?: number;
  /** Serve the OpenAPI document the build wrote, and a docs page (README: OpenAPI). Off by default. */
  docs?: DocsOptions;
}

export interface KilnServer {
  /** Starts listening; resolves with the bound address. Port 0 picks a free port. Default port 3000, all interfaces. */
  listen(port?: number, host?: string): Promise<{ port: number; host: string }>;
  /** The Node request listener, for your own `http`/`https` server. */
  readonly handler: (incoming: IncomingMessage, response: ServerResponse) => void;
  /** In-process dispatch of a web Request through the same pipeline. */
  fetch(request: Request): Promise<Response>;
  /** The static route table. */
  readonly routes: readonly RouteInfo[];
  /** Stops accepting connections, lets in-flight requests finish (up to `shutdownTimeout`), then resolves. */
  close(): Promise<void>;
}

const defaultMaxBodySize = 1024 * 1024;
const defaultMaxUrlLength = 8 * 1024;

/** The route for a method on a matched path, with HEAD served by GET. */
function routeFor(match: PathMatch<CompiledRoute>, method: string): CompiledRoute | undefined {
  const byMethod = match.entry.byMethod;
  return byMethod[method] ?? (method === 'HEAD' ? byMethod.GET : undefined);
}

/** 404, 405 with `Allow`, or 204 with `Allow` for OPTIONS: what a request without a route gets. */
function unrouted(match: PathMatch<CompiledRoute> | undefined, method: string, path: string) {
  if (match === undefined) return { status: 404, allow: undefined, message: `No route for ${method} ${path}` };
  const allow = match.entry.allow;
  if (method === 'OPTIONS') return { status: 204, allow, message: '' };
  return { status: 405, allow, message: `Method ${method} is not allowed for ${path}` };
}

/**
 * The normalised path of a request target (no query, no trailing slash). Origin-form targets
 * (`/path?query`) are sliced; an absolute-form one (`http://host/path`) is parsed, and throws on garbage.
 */
function targetPath(target: string): string {
  let path: string;
  if (target.charCodeAt(0) !== 47 /* / */) path = new URL(target).pathname;
  else {
    const question = target.indexOf('?');
    path = question === -1 ? target : target.slice(0, question);
  }
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path;
}

/** The query string of a request target, without the `?`. */
function targetSearch(target: string): string {
  if (target.charCodeAt(0) !== 47 /* / */) return new URL(target).search.slice(1);
  const question = target.indexOf('?');
  return question === -1 ? '' : target.slice(question + 1);
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
  const maxBodySize = config.maxBodySize ?? defaultMaxBodySize;
  if (!Number.isInteger(maxBodySize) || maxBodySize < 0) throw new KilnError('KILN007', `maxBodySize must be a whole number of bytes, got ${maxBodySize}`);
  const requestOptions: RequestOptions = Object.freeze({ maxBodySize, trustProxy: config.trustProxy ?? true });
  const maxUrlLength = config.maxUrlLength ?? defaultMaxUrlLength;
  const onError = config.onError ?? ((error: unknown, req: KilnRequest) => console.error(`[kiln] ${req.method} ${req.path}:`, error));

  const report = (error: unknown, req: RequestCore, route?: CompiledRoute): void => {
    try {
      onError(error, req as unknown as KilnRequest);
    } catch (failure) {
      console.error(`[kiln] onError threw while reporting an error of ${route?.name ?? req.path}:`, failure);
    }
  };
  const compiled = buildRouteTable(config.controllers, config.middlewares ?? [], {
    strict: config.strictValidation ?? false,
    report,
  });
  if (config.docs !== undefined) compiled.push(...docsRoutes(config.docs, compiled, report));
  const router = new Router<CompiledRoute>();
  for (const route of compiled) router.add(route.method, route.path, route);
  router.build();
  const routes = Object.freeze(compiled.map(routeInfo));

  // hot path: every request over a socket starts here
  const handler = (incoming: IncomingMessage, response: ServerResponse): void => {
    const method = incoming.method!;
    const target = incoming.url!;
    if (target.length > maxUrlLength) {
      writeJson(response, undefined, 414, errorBody(414, `Request target is longer than ${maxUrlLength} bytes`));
      return;
    }
    let path: string;
    let search: string;
    let match: PathMatch<CompiledRoute> | undefined;
    try {
      path = targetPath(target);
      search = targetSearch(target);
      match = router.find(path);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 400;
      const message = error instanceof HttpError ? error.message : 'Malformed request target';
      writeJson(response, undefined, status, errorBody(status, message));
      return;
    }
    const route = match === undefined ? undefined : routeFor(match, method);
    if (route === undefined) {
      const { status, allow, message } = unrouted(match, method, path);
      if (allow !== undefined) response.setHeader('allow', allow);
      writeJson(response, undefined, status, status === 204 ? undefined : errorBody(status, message));
      return;
    }
    const declaredLength = incoming.headers['content-length'];
    if (declaredLength !== undefined && Number(declaredLength) > maxBodySize) {
      // Refused before a byte of the body is read; the connection closes instead of draining it.
      response.setHeader('connection', 'close');
      writeJson(response, undefined, 413, errorBody(413, bodyTooLarge(maxBodySize).message));
      return;
    }
    const req = new NodeRequest(incoming, response, path, search, match!.params, requestOptions);
    let result: unknown;
    try {
      result = dispatch(route, req);
    } catch (error) {
      writeError(req, error, route);
      return;
    }
    if (isPromiseLike(result)) {
      result.then(
        (value) => writeValue(req, value, route),
        (error) => writeError(req, error, route),
      );
    } else {
      writeValue(req, result, route);
    }
  };

  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = targetPath(url.pathname);
    const method = request.method;
    let match: PathMatch<CompiledRoute> | undefined;
    try {
      match = router.find(path);
    } catch (error) {
      const status = (error as HttpError).status ?? 400;
      return new Response(errorBody(status, (error as Error).message), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    const route = match === undefined ? undefined : routeFor(match, method);
    if (route === undefined) {
      const { status, allow, message } = unrouted(match, method, path);
      const headers: Record<string, string> = status === 204 ? {} : { 'content-type': 'application/json; charset=utf-8' };
      if (allow !== undefined) headers.allow = allow;
      return new Response(status === 204 ? null : errorBody(status, message), { status, headers });
    }
    const req = new FetchRequest(request, url, match!.params, requestOptions);
    try {
      return valueToWebResponse(req, await dispatch(route, req));
    } catch (error) {
      return errorToWebResponse(req, error, (e) => report(e, req, route));
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
