/**
 * Every error Kiln itself throws at start-up, by code. Build-time diagnostics of the transformer
 * are KILN1xx and live in its own registry; these are KILN0xx. docs/reference/diagnostics.md documents each code
 * (a test checks it).
 */
export const runtimeErrorCodes = {
  KILN001: 'a class listed in `controllers` is not decorated with `@Controller(basePath)`',
  KILN002: 'the same method and path is declared by two handlers',
  KILN003: 'a route handler or middleware `use` has no compiled binder: @kiln/core/transformer did not compile its file',
  KILN004: 'a class middleware is not marked with `@Middleware()`',
  KILN005: 'a middleware is neither a function nor a class with a `use` method',
  KILN006: 'a route path has a malformed or repeated `:parameter`',
  KILN007: 'the server configuration is invalid',
  KILN008: 'a decorator got an invalid argument, or was put on a member it does not apply to',
  KILN009: 'a Kiln parameter decorator was called at run time: @kiln/core/transformer did not compile its file',
  KILN010: 'a class given as a middleware has no `use` method',
  KILN011: '`cors(options)` got an invalid option',
  KILN012: "`compression(options)` got an invalid option, or the runtime has no `node:zlib` (or no zstd for `encodings: ['zstd']`)",
  KILN013:
    'a multipart/form-data body arrived and the optional peer `@fastify/busboy`, which reads it, is not installed (or the runtime has no `node:fs`)',
  KILN014: '`listen()` was called on a runtime Kiln has no listener for (Workers): export `{ fetch: app.fetch }` instead',
  KILN020:
    'dependency injection cannot be wired: a token nobody registered, a class that is neither `@Injectable()` nor registered, a cycle, a factory that threw, or a class compiled without the transformer (one error lists every problem)',
  KILN021: 'an async `factory` in `injections` rejected, so the application could not start (`listen` rejects)',
  KILN022: "a service's `onInit()` threw or rejected, so the application could not start (`listen` rejects)",
  KILN040:
    '`req.setResponseHeader` got a name that is not an HTTP token, a value HTTP cannot carry, or a framing header Kiln writes itself',
  KILN041: 'a response could not be sent as built (a header Node refuses): the request answered 500',
  KILN042: 'a response status is not an integer from 200 to 599 (an HttpError-like object, a 1xx status): the request answered 500',
  KILN043: 'a returned Response has a body that is locked or already read: the request answered 500',
  KILN044: 'a thrown value could not be inspected (a Proxy whose traps throw): the request answered 500',
  KILN046:
    'a return value cannot be written as JSON (a bigint, a cycle, a getter or toJSON that throws): the request answered 500, and the error names the route',
  KILN047:
    "a return value does not fit the route's declared return type under `typedResponses: 'assert'`: the request answered 500, and the error names the path of the first mismatch",
  KILN050: 'the `health` option of createServer is invalid (a path, a check, an interval), or a health path is already a route of the app',
  KILN070: 'the `trustProxy` setting is not a boolean, a hop count or a list of addresses/CIDR ranges',
  KILN080: '`secureHeaders(options)` got an invalid option (an unknown name, a value a header cannot carry, a malformed CSP directive)',
  KILN081: '`csrf(options)` got an invalid option, or `csrfToken(req)` was called on a route without `csrf({ doubleSubmit: true })`',
  KILN082:
    'a cookie cannot be set as asked: a name that is not a token, an attribute that cannot be sent, or a `__Host-`/`__Secure-` prefix, `SameSite=None` or `Partitioned` rule broken',
  KILN083: 'the secrets of `cookieSigner` or `session` are not a non-empty list of strings of at least 32 characters',
  KILN084: '`session(options)` or a session store got an invalid option, or `req.session` was read on a route without `session()`',
  KILN085: 'a session kept in its cookie (CookieSessionStore) grew past the 4,096 bytes a browser keeps: the request answered 500',
  KILN086:
    '`jwtGuard(options)` or `apiKeyGuard(options)` got an invalid option (no algorithm list, `none`, a key missing for an algorithm), or `req.claims` was read on a route without `jwtGuard()`',
  KILN087: '`jwtGuard` verified a token and the optional peer dependency `jose` is not installed: the request answered 500',
  KILN030: 'the `docs` option of createServer is invalid (not an object, a path that does not start with `/`)',
  KILN031: '`docs.document` cannot be read, or is not an OpenAPI 3.1 document',
  KILN032: 'the OpenAPI document does not describe a route of the server: it was written by an older build',
  KILN033: '`docs.ui` is set but the `swagger-ui-dist` package, which serves the docs page, is not installed',
  KILN034: 'a `docs` path (`docs.openapi`, `docs.ui` or a page asset) is already a route of the app',
  KILN035:
    'two middlewares describe different security schemes under one name, or a security scheme is not an OpenAPI Security Scheme Object',
} as const;

export type RuntimeErrorCode = keyof typeof runtimeErrorCodes;

/** A mistake in how the application is declared or configured, found before any request is served. */
export class KilnError extends TypeError {
  override name = 'KilnError';
  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
    /** `cause`: the error that made Kiln fail (a rejected factory or hook), kept for the stack. */
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
