// State shared between runtime modules lives behind these symbols, so it never collides with
// properties that users or middlewares put on classes and requests.

/** Polyfill: Node 20 has no Symbol.metadata; TypeScript's decorator helpers use it when present. */
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for('Symbol.metadata');

/** Controller metadata: base path and controller middlewares. */
export const kController = Symbol('kiln.controller');
/** Per-method declarations (routes, status, compiled binder), keyed by method name. */
export const kMethods = Symbol('kiln.methods');
/** Marks a class-based middleware. */
export const kMiddleware = Symbol('kiln.middleware');
/** Marks an `@Injectable()` service. */
export const kInjectable = Symbol('kiln.injectable');
/** A class's dependency plan (a function), written by the transformer. */
export const kDependencies = Symbol('kiln.dependencies');

/** Request internals read by the response writers. */
export const kStatus = Symbol('kiln.status');
export const kResponseHeaders = Symbol('kiln.responseHeaders');
export const kCloseConnection = Symbol('kiln.closeConnection');
/** The request target as received, read by the routing step. */
export const kTarget = Symbol('kiln.target');
/** Reports an unexpected error of a request to the server's onError. */
export const kReport = Symbol('kiln.report');
/** The request's own check of a declared Content-Length against maxBodySize. */
export const kOversizedBody = Symbol('kiln.oversizedBody');
/** The serialiser of the value being answered: the route's typed one while the handler's value is sent. */
export const kSerializer = Symbol('kiln.serializer');
/** The server's open event streams, which an @Sse() answer joins so that close() can end it. */
export const kEventStreams = Symbol('kiln.eventStreams');
/** The server's send timeout, read by the streamed-response writer. */
export const kSendTimeout = Symbol('kiln.sendTimeout');
/** Registers a listener called once the request's answer is sent (status, whether it was sent whole). */
export const kWhenAnswered = Symbol('kiln.whenAnswered');
/** Calls the listeners of kWhenAnswered (the in-process transport, once its Response exists). */
export const kAnswered = Symbol('kiln.answered');
/** The server's logger, for Kiln's own middlewares. */
export const kLogger = Symbol('kiln.logger');
/** The coding and settings `compression()` recorded for the answer, read by the response writers. */
export const kCompression = Symbol('kiln.compression');
/** Removes the temporary files of a request's uploads; `app.fetch` calls it once the answer is made. */
export const kRemoveUploads = Symbol('kiln.removeUploads');
/** Aborts the request's `req.signal` (created then if nobody read it yet) with a reason: a deadline passed. */
export const kAbort = Symbol('kiln.abort');
/** The request's session, set by `session()` and read by `req.session`. */
export const kSession = Symbol('kiln.session');
/** The verified JWT claims, set by `jwtGuard()` and read by `req.claims`. */
export const kClaims = Symbol('kiln.claims');
/** The server's error format (`errors` option), read by the writers of error answers. */
export const kErrorFormat = Symbol('kiln.errorFormat');
/**
 * Extension members a Kiln 400 carries for problem details only (a parameter's failure as
 * `errors: [{ path, expected, value }]`, like a body's), where the default body has no data.
 */
export const kProblemMembers = Symbol('kiln.problemMembers');
/** The HTTP version of the request (`1.1`), when the transport knows it: `network.protocol.version`. */
export const kProtocolVersion = Symbol('kiln.protocolVersion');
/** The request's server span, set when `telemetry` is on: its exception record and the log lines' trace ids. */
export const kRequestSpan = Symbol('kiln.requestSpan');
/** Whether the server is closing now (`close()` began): every answer then carries `Connection: close`. */
export const kServerClosing = Symbol('kiln.serverClosing');
