// Longer than most files here, on purpose: the public KilnRequest interface and RequestCore, its
// one implementation (shared by the socket and the in-process request), stand side by side so
// that every member of the interface, and of the web Request it extends, is implemented beside
// its declaration (`implements KilnRequest` checks them together).
import { HttpError } from '../http-error.js';
import {
  kAbort,
  kSendTimeout,
  kEventStreams,
  kAnswered,
  kCloseConnection,
  kCompression,
  kLogger,
  kOversizedBody,
  kRemoveUploads,
  kReport,
  kResponseHeaders,
  kSerializer,
  kStatus,
  kTarget,
  kWhenAnswered,
  kSession,
  kClaims,
  kErrorFormat,
  kProtocolVersion,
  kRequestSpan,
  kServerClosing,
} from '../symbols.js';
import type { ErrorFormat } from '../response/error-format.js';
import { errorOutcome } from '../response/error-body.js';
import type { ResponseCompression } from '../compression/response-compression.js';
import type { RouteInfo } from '../router/route-info.js';
import { targetSearch } from '../router/request-target.js';
import { bodyTooLarge } from './body-limit.js';
import type { Serializer } from '../response/serializer.js';
import { parseCookies } from './cookies.js';
import { parseQueryString, type QueryValues } from './query-string.js';
import { isMultipart, parseBodyBytes } from './body-parser.js';
import { readMultipart, UploadFolder } from './multipart.js';
import type { UploadLimits } from './upload-options.js';
import { parseJsonBody } from './body-json.js';
import { isHeaderName, isHeaderValue, recordableHeaderName } from '../response/header-rules.js';
import { KilnError, kilnError } from '../kiln-error.js';
import { clientAddress, type ProxyTrust } from './client-address.js';
import { requestId } from './request-id.js';
import type { Logger } from '../logging/logger.js';
import type { Session } from '../session/session.js';
import type { VerifiedClaims } from '../auth/jwt-claims.js';
import type { RequestSignals } from './request-signals.js';
import type { Lifecycle } from '../health/lifecycle.js';
import type { OpenEventStreams } from '../sse/open-event-streams.js';
import type { RequestSpan } from '../telemetry/request-span.js';

/**
 * The request handed to middlewares, `@Req()` and custom parameter decorators: a web-standard
 * `Request` (`instanceof Request` holds) with Kiln's properties. Its layout:
 * `headers` is a native `Headers`, `flatHeaders` a plain lower-case object, `body` the
 * native stream and `parsedBody` the parsed body once it has been read.
 *
 * Everything is computed on first access and cached: a request pays only for what it reads.
 * There is no index signature: a middleware that adds a property (`req.user = ...`) declares it
 * by declaration merging, optional because not every request has it:
 *
 * @example
 * ```ts
 * declare module '@kiln/core' {
 *   interface KilnRequest { user?: { id: string } }
 * }
 * ```
 */
export interface KilnRequest extends Request {
  /** Route parameters, percent-decoded. */
  readonly params: Record<string, string>;
  /** Query parameters; a repeated key gives an array. Null-prototype object. */
  readonly query: QueryValues;
  /** Cookies from the `Cookie` header. Null-prototype object. */
  readonly cookies: Record<string, string>;
  /** The request pathname as routed: not decoded, without the query and one trailing slash. */
  readonly path: string;
  /**
   * The route that answers this request, as listed in `app.routes`; `undefined` when no route
   * matched (the request will end in 404, 405, or 204 for OPTIONS, unless a middleware answers it).
   */
  readonly route: RouteInfo | undefined;
  /** Host name from the `Host` header, without the port. */
  readonly hostname: string;
  readonly protocol: 'http' | 'https';
  /**
   * The client address as the server's `trustProxy` says (default: the first address of
   * `X-Forwarded-For`, else `X-Real-IP`, when the peer is a loopback or private-network address
   * or there is none; else the socket's remote address), canonical: no port,
   * brackets or zone, IPv4-mapped IPv6 as IPv4, IPv6 compressed lower-case. `undefined` for an
   * in-process `app.fetch` request without a usable proxy header.
   */
  readonly ip: string | undefined;
  /** The socket's remote address, whatever the headers say; `undefined` for an in-process `app.fetch` request. */
  readonly remoteAddress: string | undefined;
  /** Headers as a null-prototype object keyed by lower-case name; repeated headers joined with `, `. */
  readonly flatHeaders: Record<string, string>;
  /**
   * The request's id: the `X-Request-Id` header when a trusted proxy sent it (the `trustProxy`
   * rule of `req.ip`; 1 to 128 visible ASCII characters), else a new random UUID. Computed on
   * first read, then fixed. `requestLogger()` logs it and echoes it in the answer's `X-Request-Id`.
   */
  readonly id: string;
  /** The application's logger, bound to this request's id (`reqId`). Created on first read. */
  readonly log: Logger;
  /** The parsed body once it has been read (by a `@Body` parameter or `parseBody()`), else `undefined`. */
  readonly parsedBody: unknown;
  /**
   * Reads and parses the body by its `Content-Type` (JSON, `+json`, urlencoded form, `text/*`),
   * at most `maxBodySize` bytes; a `multipart/form-data` body is streamed into a `FormData`
   * (files as `File`s) within the `uploads` limits of createServer. Cached. Invalid JSON rejects with a 400 `HttpError`.
   */
  parseBody(): Promise<unknown>;
  /**
   * Adds a header to whatever response this request ends with, without creating a `Response`.
   * Recording the same name again replaces the value (except `Set-Cookie`, which adds one).
   * Throws a `TypeError` (code `KILN040`) for a name that is not an HTTP token, a value with a
   * character HTTP cannot carry (control characters, anything past U+00FF), or a connection or
   * framing header (`content-length`, `transfer-encoding`, `connection`, …), which Kiln writes itself.
   *
   * @example
   * ```ts
   * req.setResponseHeader('x-request-id', id);
   * req.setResponseHeader('x-echo', encodeURIComponent(userText)); // user text: encode it first
   * ```
   */
  setResponseHeader(name: string, value: string): void;
  /**
   * The request's session, typed by the application's `SessionData`: set by the `session()`
   * middleware; reading it on a route without that middleware throws a KILN084 KilnError.
   */
  readonly session: Session;
  /**
   * The verified claims of the request's JWT, typed by the application's `JwtClaims`: set by
   * `jwtGuard()`; reading them on a route without that guard throws a KILN086 KilnError.
   */
  readonly claims: VerifiedClaims;
  /**
   * The server's RFC 9457 answer to an error a middleware writes itself: a `Response` with
   * `application/problem+json` problem details (`detail`, the request's path as `instance`, the
   * members of `extensions`) when the server was created with `errors: 'problem+json'`;
   * `undefined` when it answers errors with the default body, so the caller writes its own.
   * For packages that answer without importing Kiln at run time (`@kiln/rate-limit`'s 429);
   * code that imports Kiln throws `HttpError` instead. `status` is from 400 to 599.
   *
   * @example
   * ```ts
   * return req.problemResponse?.(429, 'Rate limit exceeded') ?? myJson429();
   * ```
   */
  problemResponse(status: number, detail: string, extensions?: Record<string, unknown>): Response | undefined;
}

/** What the server tells every request it creates. */
export interface RequestOptions {
  readonly maxBodySize: number;
  readonly trustProxy: ProxyTrust;
  /** The server's `onError`, guarded: called once for an error that is not an `HttpError`. */
  readonly report: (error: unknown, req: KilnRequest) => void;
  /** Deepest nesting of arrays and objects a JSON body may have. */
  readonly maxBodyDepth: number;
  /** Milliseconds a streamed response may wait for a client that reads nothing; 0 = no limit. */
  readonly sendTimeout: number;
  /** The application's logger. */
  readonly logger: Logger;
  /** Limits of multipart/form-data bodies. */
  readonly uploads: UploadLimits;
  /** The open `req.signal`s of the server, aborted at the shutdown deadline. */
  readonly signals: RequestSignals;
  /** Whether the server is closing: then every answer carries `Connection: close`. */
  readonly lifecycle: Lifecycle;
  /** How error answers are written: the default JSON body or RFC 9457 problem details. */
  readonly errors: ErrorFormat;
}

/** Called once a request's answer is sent: its status, and false when the client left before the end. */
export type AnsweredListener = (status: number, complete: boolean) => void;

/** The KILN040 TypeError for a header `setResponseHeader` cannot record; the value itself is not echoed. */
function refusedHeader(name: unknown, value: unknown): KilnError {
  const shown = typeof name === 'string' ? JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}...` : name) : typeof name;
  let reason: string;
  if (!isHeaderName(name)) reason = "its name is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~ only)";
  else if (typeof value !== 'string') reason = `its value must be a string, got ${value === null ? 'null' : typeof value}`;
  else if (!isHeaderValue(value))
    reason =
      'its value has a character HTTP cannot carry (a control character such as CR, LF or NUL, DEL, or one past U+00FF: percent-encode it)';
  else reason = 'it is a connection or framing header, which Kiln writes itself';
  return kilnError('KILN040', 'headerRefused', shown, reason);
}

const emptyParams: Record<string, string> = Object.freeze(Object.create(null));
const noBody = Promise.resolve(Buffer.alloc(0));

/**
 * What both request sources (a Node `IncomingMessage`, a web `Request` given to `app.fetch`)
 * share. Subclasses say how to read a header, the body and the socket.
 */
export abstract class RequestCore implements KilnRequest {
  readonly method: string;
  /** The next three are set once, by the routing step, before any middleware sees the request. */
  path = '';
  params: Record<string, string> = emptyParams;
  route: RouteInfo | undefined = undefined;
  /** The request target as received: origin-form, or absolute-form from a proxy-style client. */
  readonly [kTarget]: string;
  /** Status for a plain return value; set by the dispatcher. */
  [kStatus]: number | undefined = undefined;
  /** Typed-response serialiser of the handler's value; set by the dispatcher (undefined: JSON.stringify). */
  [kSerializer]: Serializer | undefined = undefined;
  /** Extra response headers as a flat [name, value, ...] list; see setResponseHeader. */
  [kResponseHeaders]: string[] | undefined = undefined;
  /** Set when the body was not read to its end, so the connection cannot be reused. */
  [kCloseConnection] = false;
  /** What `compression()` negotiated for the answer; undefined without the middleware. */
  [kCompression]: ResponseCompression | undefined = undefined;
  /** The server span, when `telemetry` is on; no field otherwise, so a request without telemetry pays nothing. */
  declare [kRequestSpan]?: RequestSpan;

  protected readonly options: RequestOptions;
  #query: QueryValues | undefined;
  #cookies: Record<string, string> | undefined;
  #bytes: Promise<Buffer> | undefined;
  #parsed: Promise<unknown> | undefined;
  #parsedValue: unknown;
  #json: Promise<unknown> | undefined;
  #streamTaken = false;
  #id: string | undefined;
  #log: Logger | undefined;
  #answered: AnsweredListener[] | undefined;
  #uploads: UploadFolder | undefined;
  #abort: AbortController | undefined;
  /** An abort asked for before anybody read `signal`: the signal is born aborted with this reason. */
  #abortedBefore: { reason: unknown } | undefined;

  constructor(method: string, target: string, options: RequestOptions) {
    this.method = method;
    this[kTarget] = target;
    this.options = options;
    // While the server closes, no connection is kept for another request.
    if (options.lifecycle.closing) this[kCloseConnection] = true;
  }

  abstract get url(): string;
  abstract get headers(): Headers;
  abstract get flatHeaders(): Record<string, string>;
  abstract get protocol(): 'http' | 'https';
  abstract get hostname(): string;
  protected abstract socketAddress(): string | undefined;
  /** The `Content-Length` the client declared, if any. */
  protected abstract declaredLength(): string | undefined;
  protected abstract readBytes(limit: number): Promise<Buffer>;
  /** The body as a web stream bounded by `limit` bytes (default maxBodySize). */
  protected abstract openStream(limit?: number): ReadableStream<Uint8Array> | null;
  /**
   * Runs `remove` once the answer is sent or the client is gone (a socket request); `app.fetch`
   * calls `[kRemoveUploads]()` itself once the answer is made.
   */
  protected abstract afterAnswer(remove: () => void): void;

  get query(): QueryValues {
    return (this.#query ??= parseQueryString(targetSearch(this[kTarget])));
  }

  get cookies(): Record<string, string> {
    return (this.#cookies ??= parseCookies(this.headers.get('cookie')));
  }

  get ip(): string | undefined {
    return clientAddress(this.options.trustProxy, this.headers, this.socketAddress(), this.options.logger);
  }

  get remoteAddress(): string | undefined {
    return this.socketAddress();
  }

  get id(): string {
    return (this.#id ??= requestId(this.options.trustProxy, this.headers.get('x-request-id'), this.socketAddress()));
  }

  get log(): Logger {
    if (this.#log === undefined) {
      const trace = this[kRequestSpan]?.fields();
      this.#log = this.options.logger.child(trace === undefined ? { reqId: this.id } : { reqId: this.id, ...trace });
    }
    return this.#log;
  }

  /** Whether `close()` has begun, read when the answer is made (a request in flight then is answered with `Connection: close` too). */
  get [kServerClosing](): boolean {
    return this.options.lifecycle.closing;
  }

  /** The HTTP version (`1.1`), where the transport tells it. */
  get [kProtocolVersion](): string | undefined {
    return undefined;
  }

  get [kLogger](): Logger {
    return this.options.logger;
  }

  get [kErrorFormat](): ErrorFormat {
    return this.options.errors;
  }

  problemResponse(status: number, detail: string, extensions?: Record<string, unknown>): Response | undefined {
    const format = this.options.errors;
    if (format.option !== 'problem+json') return undefined;
    const outcome = errorOutcome(new HttpError(status, detail, extensions), format, this.path);
    return new Response(this.method === 'HEAD' ? null : outcome.body, { status, headers: { 'content-type': format.contentType } });
  }

  /** Calls `listener` once the answer is sent. The socket transport overrides this with the response's own event. */
  [kWhenAnswered](listener: AnsweredListener): void {
    (this.#answered ??= []).push(listener);
  }

  /** The in-process transport's end: calls every kWhenAnswered listener with the final status. */
  [kAnswered](status: number): void {
    const listeners = this.#answered;
    this.#answered = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(status, true);
  }

  // hot path: the rate limiter records three headers on every request
  setResponseHeader(name: string, value: string): void {
    // Refused here, at the developer's call, rather than when Node writes the head.
    const lowerName = recordableHeaderName(name);
    if (lowerName === undefined || !isHeaderValue(value)) throw refusedHeader(name, value);
    const recorded = (this[kResponseHeaders] ??= []);
    // A later value replaces an earlier one (an inner rate limiter's headers win), except Set-Cookie.
    if (lowerName !== 'set-cookie') {
      for (let i = 0; i < recorded.length; i += 2) {
        if (recorded[i] === lowerName) {
          recorded[i + 1] = value;
          return;
        }
      }
    }
    recorded.push(lowerName, value);
  }

  get session(): Session {
    const session = (this as { [kSession]?: Session })[kSession];
    if (session === undefined) throw kilnError('KILN084', 'noSession', this.method, this.path);
    return session;
  }

  get claims(): VerifiedClaims {
    const claims = (this as { [kClaims]?: VerifiedClaims })[kClaims];
    if (claims === undefined) throw kilnError('KILN086', 'noClaims', this.method, this.path);
    return claims;
  }

  get bodyUsed(): boolean {
    return this.#streamTaken || this.#bytes !== undefined;
  }

  // Typed through Request, so that the declaration matches whichever lib a consumer compiles with.
  get body(): Request['body'] {
    if (this.method === 'GET' || this.method === 'HEAD') return null;
    if (this.#bytes !== undefined) {
      const bytes = this.#bytes;
      return new ReadableStream({
        async start(controller) {
          controller.enqueue(new Uint8Array(await bytes));
          controller.close();
        },
      });
    }
    this.#streamTaken = true;
    return this.openStream();
  }

  /**
   * The 413 for a declared `Content-Length` over `maxBodySize`, decided before a byte of the body
   * is read; the rest is then never read, so the connection cannot be reused.
   */
  [kOversizedBody](): HttpError | undefined {
    const declared = this.declaredLength();
    // hot path: one comparison for a body within maxBodySize
    if (declared === undefined || !(Number(declared) > this.options.maxBodySize)) return undefined;
    const limit = this.bodyLimit();
    if (!(Number(declared) > limit)) return undefined;
    this[kCloseConnection] = true;
    return bodyTooLarge(limit);
  }

  /** The most bytes of body read: uploads.maxTotalSize for a multipart body, maxBodySize otherwise. */
  protected bodyLimit(): number {
    return isMultipart(this.headers.get('content-type')) ? this.options.uploads.maxTotalSize : this.options.maxBodySize;
  }

  /**
   * Removes the temporary files of this request's uploads (see UploadOptions). Never rejects.
   * Undefined when the request has none, so that `app.fetch` answers a request without uploads
   * without waiting a turn.
   */
  [kRemoveUploads](): Promise<void> | undefined {
    return this.#uploads?.remove();
  }

  /** A multipart body as FormData, streamed within the upload limits; its temporary files go when the answer is sent. */
  #readForm(contentType: string): Promise<FormData> {
    if (this.#streamTaken || this.#bytes !== undefined) return Promise.reject(new TypeError('Body is unusable: it was already read'));
    this.#streamTaken = true;
    const folder = new UploadFolder(this.options.uploads.tmpDir);
    this.#uploads = folder;
    this.afterAnswer(() => void folder.remove());
    return readMultipart(this.openStream(this.options.uploads.maxTotalSize), contentType, this.options.uploads, folder);
  }

  /** Hands an unexpected error (a bug, not an `HttpError`) to the server's `onError`. */
  [kReport](error: unknown): void {
    this[kRequestSpan]?.exception(error);
    this.options.report(error, this);
  }

  /** The raw body, read once (bounded by maxBodySize) and cached. */
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    // A Buffer read from a socket is never backed by a SharedArrayBuffer.
    return this.#rawBody().then((buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength));
  }

  #rawBody(): Promise<Buffer> {
    if (this.#bytes === undefined) {
      if (this.#streamTaken) return Promise.reject(new TypeError('Body is unusable: its stream was already read'));
      const refused = this[kOversizedBody]();
      if (refused !== undefined) this.#bytes = Promise.reject(refused);
      else this.#bytes = this.method === 'GET' || this.method === 'HEAD' ? noBody : this.readBytes(this.options.maxBodySize);
    }
    return this.#bytes;
  }

  text(): Promise<string> {
    return this.#rawBody().then((buffer) => buffer.toString('utf8'));
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#rawBody().then((buffer) => buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer);
  }

  blob(): Promise<Blob> {
    return this.#rawBody().then((buffer) => new Blob([buffer], { type: this.headers.get('content-type') ?? '' }));
  }

  /**
   * Parses the body as JSON whatever its Content-Type, like `Request.json()`. Cached. Invalid or
   * empty JSON rejects with `400 Failed to parse JSON body: …`, nesting past `maxBodyDepth` with a 400.
   */
  json(): Promise<any> {
    // Invalid or empty JSON is the client's mistake: a 400, never a bare SyntaxError (a 500).
    return (this.#json ??= this.#rawBody().then((buffer) => parseJsonBody(buffer, this.options.maxBodyDepth)));
  }

  async formData(): Promise<FormData> {
    const contentType = this.headers.get('content-type');
    if (isMultipart(contentType)) return (await this.parseBody()) as FormData;
    const request = new Request('http://kiln.invalid/', {
      method: 'POST',
      headers: { 'content-type': this.headers.get('content-type') ?? '' },
      body: await this.#rawBody(),
    });
    return request.formData();
  }

  parseBody(): Promise<unknown> {
    if (this.#parsed === undefined) {
      const contentType = this.headers.get('content-type');
      if (isMultipart(contentType) && this.method !== 'GET' && this.method !== 'HEAD') {
        this.#parsed = this.#readForm(contentType!).then((form) => {
          this.#parsedValue = form;
          return form;
        });
        return this.#parsed;
      }
      this.#parsed = this.#rawBody().then((buffer) => {
        const value = parseBodyBytes(buffer, this.headers.get('content-type'), this.options.maxBodyDepth);
        this.#parsedValue = value;
        return value;
      });
    }
    return this.#parsed;
  }

  get parsedBody(): unknown {
    return this.#parsedValue;
  }

  // The rest of the Request interface, with the values a server-side request has.
  get cache(): Request['cache'] {
    return 'default';
  }
  get credentials(): Request['credentials'] {
    return 'same-origin';
  }
  get destination(): Request['destination'] {
    return '';
  }
  get integrity(): string {
    return '';
  }
  get keepalive(): boolean {
    return false;
  }
  get mode(): Request['mode'] {
    return 'cors';
  }
  get redirect(): Request['redirect'] {
    return 'follow';
  }
  get referrer(): string {
    return this.headers.get('referer') ?? '';
  }
  get referrerPolicy(): Request['referrerPolicy'] {
    return '';
  }
  get duplex(): 'half' {
    return 'half';
  }
  get isReloadNavigation(): boolean {
    return false;
  }
  get isHistoryNavigation(): boolean {
    return false;
  }
  /**
   * Aborted when the client goes away before the answer is sent, when the route's
   * `handlerTimeout` passes, or when `close()`'s shutdown deadline passes. Created on first
   * read: a request that never reads it pays nothing.
   */
  get signal(): AbortSignal {
    return (this.#abort ??= this.#openSignal()).signal;
  }

  #openSignal(): AbortController {
    const controller = new AbortController();
    if (this.#abortedBefore !== undefined) {
      controller.abort(this.#abortedBefore.reason);
      return controller;
    }
    const signals = this.options.signals;
    const entry = signals.remember(controller);
    this.watchDisconnect(controller, () => signals.forget(entry));
    return controller;
  }

  /** The server's open event streams (an @Sse() answer joins them: close() ends it). */
  get [kEventStreams](): OpenEventStreams {
    return this.options.lifecycle.eventStreams;
  }

  /** See `sendTimeout` in the server configuration: how long a streamed answer's chunk may wait for its client. */
  get [kSendTimeout](): number {
    return this.options.sendTimeout;
  }

  /** Aborts `signal` with `reason` (a deadline passed); the first reason wins. */
  [kAbort](reason: unknown): void {
    if (this.#abort !== undefined) this.#abort.abort(reason);
    else this.#abortedBefore ??= { reason };
  }

  /**
   * Aborts `controller` when the client goes away before the answer is sent; calls `done` once the
   * request is over (when the transport can tell).
   */
  protected abstract watchDisconnect(controller: AbortController, done: () => void): void;

  clone(): Request {
    if (this.method !== 'GET' && this.method !== 'HEAD') {
      throw new TypeError('A KilnRequest with a body cannot be cloned; read it once with parseBody() or text()');
    }
    return new Request(this.url, { method: this.method, headers: this.headers });
  }
}

// `instanceof Request` holds without running the Request constructor (which parses the URL and
// copies every header: the single largest cost of a web-standard server). Every Request member
// is overridden above, so no Request getter ever sees this object.
Object.setPrototypeOf(RequestCore.prototype, Request.prototype);
