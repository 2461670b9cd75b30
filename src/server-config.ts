import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocketOptions } from './websocket/websocket-options.js';
import type { Injection } from './injection/container.js';
import type { MiddlewareLike } from './middleware.js';
import type { KilnRequest } from './request/kiln-request.js';
import type { TrustProxy } from './request/client-address.js';
import type { ControllerClass, RouteInfo } from './router/route-info.js';
import type { DocsOptions } from './openapi/docs-options.js';
import type { Logger } from './logging/logger.js';
import type { LoggerOptions } from './logging/create-logger.js';
import type { UploadOptions } from './request/upload-options.js';
import type { HealthOptions } from './health/health-options.js';
import type { ErrorsOption } from './response/error-format.js';
import type { TelemetryOptions } from './telemetry/telemetry-options.js';

/** What `createServer` takes. Every key but `controllers` has a default. */
export interface KilnConfig {
  /** Controller classes (decorated with `@Controller`). */
  controllers: readonly ControllerClass[];
  /** Application-level middlewares, run first for every request, whether a route matched it or not. */
  middlewares?: readonly MiddlewareLike[];
  /** When true, a failed parameter conversion answers 400 instead of passing NaN/null/Invalid Date. Default false. */
  strictValidation?: boolean;
  /**
   * How every error answer is written: `'json'` (the default) is `{ "error", "message", "data"? }`
   * as `application/json`; `'problem+json'` is RFC 9457 problem details, `application/problem+json`
   * with `type`, `title`, `status`, `detail`, `instance` and the HttpError's data as extension
   * members (docs: guide/controllers.md, "Problem details"). The build's `errors` plugin option
   * must say the same for the OpenAPI document and the typed client (KILN060 at start-up when the
   * served document disagrees).
   */
  errors?: ErrorsOption;
  /** Largest request body read, in bytes; larger ones answer 413. Default 1 MiB. A multipart body has `uploads.maxTotalSize` instead. */
  maxBodySize?: number;
  /** Limits of `multipart/form-data` bodies (file uploads): see `UploadOptions`. */
  uploads?: UploadOptions;
  /** Which proxies report the client address for `req.ip` (and the rate limiter's key): see `TrustProxy`. Default: forwarding headers believed only from a loopback or private-network peer. */
  trustProxy?: TrustProxy;
  /**
   * Called once for every error that is not an `HttpError` (the client gets a bare 500). Default:
   * an `error` line of the logger, `{ err, req: { id, method, path } }`, "request failed".
   */
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
  /**
   * Milliseconds the whole of `close()` may take: in-flight requests finish within it (at the
   * deadline every open `req.signal` is aborted with an `AbortError`, then their connections are
   * cut), then the services' `onClose()` hooks run in the time left; a hook still running at the
   * deadline is logged by name and abandoned. Default 10 000. `health.drainDelay` comes before it.
   */
  shutdownTimeout?: number;
  /**
   * Milliseconds a route's handler (its binder and handler, after the middlewares) has to give
   * its value; past it the request answers 503 `The handler did not answer within N ms`,
   * `req.signal` is aborted (a `TimeoutError`), a `warn` line names the route, and the late value
   * is discarded. `@HandlerTimeout(ms)` on a controller or route overrides it. 0 = no limit (the default).
   */
  handlerTimeout?: number;
  /** Deepest nesting of arrays and objects in a JSON body; deeper answers 400 before parsing. Default 64. */
  maxBodyDepth?: number;
  /**
   * Milliseconds a client has to take an answer before its connection is cut: a body sent whole
   * (a JSON value, a Response of known length) must be taken within it, a streamed body may stall
   * no longer than it. 0 = never. Default 30 000.
   */
  sendTimeout?: number;
  /** Most request header lines; more answer 431. Default 1 000. */
  maxHeadersCount?: number;
  /**
   * Values for `@Inject(token)` parameters, and replacements for services: `{ token, provide }` or
   * `{ token, factory }` (sync or async, called once at start-up). See "Dependency injection".
   */
  injections?: Injection[];
  /**
   * The application's logger: a logger (a pino instance, or any object with pino's methods), or
   * options for the one Kiln builds (pino when it is installed, else a JSON writer; level `info`).
   * Services inject it with `@Inject(Logger)`; `onError` and `requestLogger()` write to it.
   */
  logger?: Logger | LoggerOptions;
  /**
   * Logs the route table at start-up and each request's route decision, as `debug` lines of the
   * logger (whose level it lowers to `debug` when Kiln builds it). Default false.
   */
  debug?: boolean;
  /**
   * Liveness (`/livez`) and readiness (`/readyz`) endpoints: readiness answers 503 from the moment
   * `close()` starts and while a check fails. Off by default (docs: guide/health.md).
   */
  health?: HealthOptions;
  /** Serve the OpenAPI document the build wrote, and a docs page (docs: guide/openapi.md). Off by default. */
  docs?: DocsOptions;
  /**
   * OpenTelemetry: a server span (`GET /users/:id`) and the `http.server.request.duration`
   * histogram for every routed request, through the `@opentelemetry/api` module given as `api`
   * (`telemetry: { api }`). Off by default (docs: guide/telemetry.md).
   */
  telemetry?: TelemetryOptions;
  /**
   * Limits of every WebSocket connection (`@WebSocket` routes): message size, messages per second,
   * connections, keep-alive, slow readers (docs: guide/streaming.md).
   */
  webSocket?: WebSocketOptions;
}

/** What `app.listen(options)` takes. */
export interface ListenOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default: all interfaces. */
  host?: string;
  /** Share the port with other processes listening with it too (SO_REUSEPORT). Default false. */
  reusePort?: boolean;
}

/** What `createServer` returns. */
export interface KilnServer {
  /**
   * Starts listening with the runtime's own server (node:http on Node, `Bun.serve` on Bun,
   * `Deno.serve` on Deno); resolves with the bound address. Port 0 picks a free port. Default port
   * 3000, all interfaces. On Workers the runtime listens: export `{ fetch: app.fetch }` (KILN012).
   */
  listen(port?: number, host?: string): Promise<{ port: number; host: string }>;
  /**
   * The same with options: `{ port, host, reusePort }`. `reusePort: true` lets several processes
   * listen on one port, the kernel spreading connections between them (Linux: Node 22.12 or
   * later, Bun, Deno; KILN053 elsewhere). Docs: guide/scaling-out.md.
   */
  listen(options: ListenOptions): Promise<{ port: number; host: string }>;
  /** The Node request listener, for your own `http`/`https` server (Node, and Bun's or Deno's node:http). */
  readonly handler: (incoming: IncomingMessage, response: ServerResponse) => void;
  /** In-process dispatch of a web Request through the same pipeline. */
  fetch(request: Request): Promise<Response>;
  /** The static route table. */
  readonly routes: readonly RouteInfo[];
  /**
   * Sends `message` to every WebSocket subscribed to `topic` (`socket.subscribe(topic)`), each
   * projected to its own route's declared message type, on every process `webSocket.hub` reaches.
   * Never rejects: a message the hub refuses is logged (docs: guide/streaming.md).
   */
  publish(topic: string, message: unknown): Promise<void>;
  /** Stops accepting connections, lets in-flight requests finish, runs every service's `onClose()`, then resolves: within `shutdownTimeout` in all (a hook past it is logged and abandoned). */
  close(): Promise<void>;
}
