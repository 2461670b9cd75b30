/** When a code is thrown: while the application is declared and started, while a request is answered, or either. */
type Moment = 'start-up' | 'per request' | 'start-up or per request';

interface ErrorEntry {
  /** One line: what is wrong (docs/reference/diagnostics.md says more). */
  readonly means: string;
  readonly when: Moment;
  /** Every message the code is thrown with: call sites name one and pass its arguments. */
  readonly messages: Readonly<Record<string, (...args: never[]) => string>>;
}

const pluginSetup = '{ "transform": "@kiln/core/transformer", "transformProgram": true }';
const pluginHint =
  `@kiln/core/transformer did not run on this file. Add ${pluginSetup} ` +
  'to compilerOptions.plugins in tsconfig.json and build with tspc (ts-patch), or bundle with @kiln/core/esbuild or ' +
  '@kiln/core/vite, or run with node --import @kiln/core/register (docs: guide/build-tools.md).';
const missingBuiltin = (feature: string, id: string) => `${feature} needs the ${id} module, which this runtime does not provide`;
const transformerMissing = `@kiln/core/transformer did not compile this file. Add ${pluginSetup} to compilerOptions.plugins and build with tspc.`;
const corsOriginsAllowed =
  "name the origins allowed: a list (['https://app.example.com']), a RegExp (/^https:\\/\\/[a-z]+\\.example\\.com$/) or a function (origin, req) => boolean";

/**
 * Every error Kiln's runtime throws, by code, in numeric order: what it means, when it is thrown
 * and its messages. The transformer's build-time diagnostics (KILN1xx) have their own registry,
 * transformer/diagnostics/diagnostic-codes.cts. Not part of the public API (`runtimeErrorCodes` is):
 * a test checks that every code here has a message, is documented in docs/reference/diagnostics.md,
 * and that the order holds.
 */
export const runtimeErrors = {
  KILN001: {
    means: 'a class listed in `controllers` is not decorated with `@Controller(basePath)`',
    when: 'start-up',
    messages: {
      notAController: (controller: string) => `${controller} is listed in controllers but is not decorated with @Controller(basePath)`,
    },
  },
  KILN002: {
    means: 'the same method and path is declared by two handlers',
    when: 'start-up',
    messages: {
      routeDeclaredTwice: (method: string, path: string, previous: string, handler: string) =>
        `Route ${method} ${path} is declared twice: by ${previous} and by ${handler}`,
    },
  },
  KILN003: {
    means: 'a route handler or middleware `use` has no compiled binder: @kiln/core/transformer did not compile its file',
    when: 'start-up',
    messages: {
      routeNotCompiled: (route: string) => `Route ${route} has no compiled binder: ${pluginHint}`,
      middlewareNotCompiled: (middleware: string) => `Middleware ${middleware} has no compiled binder: ${pluginHint}`,
    },
  },
  KILN004: {
    means: 'a class middleware is not marked with `@Middleware()`',
    when: 'start-up',
    messages: {
      middlewareNotMarked: (where: string, middleware: string) =>
        `${where}: class middleware ${middleware} must be marked with @Middleware()`,
    },
  },
  KILN005: {
    means: 'a middleware is neither a function nor a class with a `use` method',
    when: 'start-up',
    messages: {
      notAMiddleware: (where: string, kind: string) =>
        `${where}: a middleware must be a function or a class with a use() method, got ${kind}`,
    },
  },
  KILN006: {
    means: 'a route path has a malformed or repeated `:parameter`',
    when: 'start-up',
    messages: {
      malformedParameter: (path: string, segment: string) => `Route path '${path}' has a malformed parameter segment '${segment}'`,
      repeatedParameter: (path: string, name: string) => `Route path '${path}' declares the parameter ':${name}' twice`,
    },
  },
  KILN007: {
    means: 'the server configuration is invalid',
    when: 'start-up',
    messages: {
      noControllers: () => 'createServer(config) needs { controllers: [...] }',
      controllerNotAClass: (kind: string) => `controllers must be classes, got ${kind}`,
      wholeNumber: (option: string, least: number, value: unknown) =>
        `${option} must be a whole number of at least ${least}, got ${String(value)}`,
      maxBodySize: (value: unknown) => `maxBodySize must be a whole number of bytes, got ${value}`,
      debug: (value: unknown) => `debug must be true or false, got ${String(value)}`,
      loggerOptions: (value: unknown) => `logger options must be an object, got ${value}`,
      loggerLevel: (levels: string, value: unknown) => `logger.level must be one of ${levels}; got ${String(value)}`,
      requestLoggerOptions: () => 'requestLogger(options) needs an object',
      requestLoggerLogger: () => 'requestLogger: logger must have info, error, debug and child methods (a pino logger, or Kiln’s)',
      requestLoggerHeader: (header: unknown) => `requestLogger: header must be a header name or false, got ${JSON.stringify(header)}`,
      uploads: () => 'uploads must be an object of upload limits',
      uploadsLimit: (name: string, value: unknown) => `uploads.${name} must be a whole number of at least 0, got ${String(value)}`,
      uploadsTmpDir: () => 'uploads.tmpDir must be a folder path',
      milliseconds: (where: string, value: unknown) => `${where} must be a whole number of milliseconds (0 for none), got ${String(value)}`,
      timeout: (option: string, longest: number, value: unknown) =>
        `${option} must be a whole number of milliseconds from 0 to ${longest}, got ${String(value)}`,
      headersAfterRequest: (headersTimeout: number, requestTimeout: number) =>
        `headersTimeout (${headersTimeout} ms) must not be longer than requestTimeout (${requestTimeout} ms), which covers the headers too; 0 turns requestTimeout off`,
    },
  },
  KILN008: {
    means: 'a decorator got an invalid argument, or was put on a member it does not apply to',
    when: 'start-up',
    messages: {
      routePath: (decorator: string, kind: string) => `@${decorator}(path) needs a path string, got ${kind}`,
      controllerPath: (kind: string) => `@Controller(basePath) needs a path string, got ${kind}`,
      httpStatus: (code: unknown) => `@HttpStatus(code) needs an integer from 100 to 599, got ${code}`,
      staticMethod: (method: string) => `Kiln decorators apply to instance methods; '${method}' is static`,
      routeNotAMethod: (member: string) => `${member} is decorated as a route but is not a method`,
      metadataMerge: (name: string) => `createRouteMetadata (${name}): merge must be a function`,
      legacyDecorators: (name: string) =>
        `@${name} needs standard (TC39) decorators with decorator metadata, not the legacy decorators option`,
      metadataTarget: (name: string, member: string) => `@${name} applies to a controller class or a route method; '${member}' is neither`,
    },
  },
  KILN009: {
    means: 'a Kiln parameter decorator was called at run time: @kiln/core/transformer did not compile its file',
    when: 'start-up',
    messages: {
      parameterDecorator: () => `A Kiln parameter decorator ran at run time: ${transformerMissing}`,
      injectionDecorator: () => `@Inject/@Scope ran at run time: ${transformerMissing}`,
    },
  },
  KILN010: {
    means: 'a class given as a middleware has no `use` method',
    when: 'start-up',
    messages: {
      noUseMethod: (where: string, middleware: string) => `${where}: class middleware ${middleware} has no use() method`,
    },
  },
  KILN011: {
    means: '`cors(options)` got an invalid option',
    when: 'start-up',
    messages: {
      options: (value: unknown) => `cors: options must be an object, got ${value}`,
      origin: () => 'cors: origin must be a boolean, a string, a RegExp, a list of strings and RegExps, or a function',
      flag: (name: string, kind: string) => `cors: ${name} must be true or false, got ${kind}`,
      wildcardWithCredentials: () =>
        `cors: credentials: true needs an origin other than '*' (browsers refuse a wildcard origin with credentials); ${corsOriginsAllowed}`,
      anyOriginWithCredentials: () =>
        `cors: origin: true with credentials: true lets every site (and Origin: null) make credentialed requests and read the answers; ${corsOriginsAllowed}, ` +
        'or set allowAnyOriginWithCredentials: true if that is really meant',
      maxAge: (value: unknown) => `cors: maxAge must be a whole number of seconds, got ${value}`,
      optionsSuccessStatus: (value: unknown) => `cors: optionsSuccessStatus must be a 2xx status, got ${value}`,
      headerList: (name: string) => `cors: ${name} must be a string or a list of strings`,
    },
  },
  KILN012: {
    means: "`compression(options)` got an invalid option, or the runtime has no `node:zlib` (or no zstd for `encodings: ['zstd']`)",
    when: 'start-up',
    messages: {
      options: () => 'compression(options): options must be an object',
      wholeNumber: (name: string, least: number, most: number, value: unknown) =>
        `compression(): ${name} must be a whole number from ${least} to ${most}, got ${String(value)}`,
      threshold: (value: unknown) => `compression(): threshold must be a whole number of bytes, got ${String(value)}`,
      filter: () => 'compression(): filter must be a function (contentType) => boolean',
      encodings: () => "compression(): encodings must be a non-empty list of 'br', 'zstd' and 'gzip'",
      unknownEncoding: (coding: unknown) =>
        `compression(): unknown encoding ${JSON.stringify(coding)}; Kiln compresses with 'br', 'zstd' and 'gzip'`,
      noZstd: (nodeVersion: string) =>
        `compression(): 'zstd' needs node:zlib's zstd (Node 22.15, 23.8 or later); this is Node ${nodeVersion}`,
      missingBuiltin,
    },
  },
  KILN013: {
    means:
      'a multipart/form-data body arrived and the optional peer `@fastify/busboy`, which reads it, is not installed (or the runtime has no `node:fs`)',
    when: 'per request',
    messages: {
      noBusboy: (reason: unknown) =>
        `A multipart/form-data body arrived, and reading it needs the @fastify/busboy package, which could not be loaded (${reason}): npm install @fastify/busboy`,
      missingBuiltin,
    },
  },
  KILN014: {
    means: '`listen()` was called on a runtime Kiln has no listener for (Workers): export `{ fetch: app.fetch }` instead',
    when: 'start-up',
    messages: {
      noListener: () =>
        'listen() needs a runtime that can open a socket (Node, Bun or Deno). On Workers the runtime listens: export default { fetch: app.fetch }',
    },
  },
  KILN020: {
    means:
      'dependency injection cannot be wired: a token nobody registered, a class that is neither `@Injectable()` nor registered, a cycle, a factory that threw, or a class compiled without the transformer (one error lists every problem)',
    when: 'start-up',
    messages: {
      unwired: (problems: readonly string[]) => `Dependency injection failed:\n  - ${problems.join('\n  - ')}`,
    },
  },
  KILN021: {
    means: 'an async `factory` in `injections` rejected, so the application could not start (`listen` rejects)',
    when: 'start-up',
    messages: {
      factoryRejected: (token: string, reason: string) => `The factory of ${token} rejected: ${reason}`,
    },
  },
  KILN022: {
    means: "a service's `onInit()` threw or rejected, so the application could not start (`listen` rejects)",
    when: 'start-up',
    messages: {
      onInitFailed: (service: string, reason: string) => `The onInit() of ${service} failed: ${reason}`,
    },
  },
  KILN030: {
    means: 'the `docs` option of createServer is invalid (not an object, a path that does not start with `/`)',
    when: 'start-up',
    messages: {
      options: () => 'docs must be an object: { document, openapi?, ui? }',
      path: (name: string, value: unknown) => `docs.${name} must be a path starting with '/', or false; got ${JSON.stringify(value)}`,
      document: () => 'docs.document must name the OpenAPI document the build wrote (a path, a file: URL or the parsed document)',
    },
  },
  KILN031: {
    means: '`docs.document` cannot be read, or is not an OpenAPI 3.1 document',
    when: 'start-up',
    messages: {
      noFileSystem: (document: string) =>
        `docs.document: this runtime has no file system to read ${document} from (Workers): pass the parsed document, e.g. import document from './openapi.json' with { type: 'json' }`,
      notJson: (resolved: string, reason: string) => `docs.document: ${resolved} is not JSON (${reason})`,
      relativePath: (resolved: string, reason: string, document: string, cwd: string, file: string) =>
        `docs.document: cannot read the OpenAPI document ${resolved} (${reason}): the relative path '${document}' is read from ` +
        `the working directory, ${cwd}. Start the server from the folder that holds ${file}, or give docs.document an absolute path`,
      unreadable: (resolved: string, reason: string, cwd: string) =>
        `docs.document: cannot read the OpenAPI document ${resolved} (${reason}; the working directory is ${cwd}). ` +
        'It is the file the build writes where the openapi option of @kiln/core/transformer says ("openapi": { "output": ... }): build first, or name that file',
      notOpenApi: () => 'docs.document is not an OpenAPI 3.1 document (no "openapi": "3.1.x" or no "paths")',
    },
  },
  KILN032: {
    means: 'the OpenAPI document does not describe a route of the server: it was written by an older build',
    when: 'start-up',
    messages: {
      routeMissing: (method: string, path: string, route: string) =>
        `The OpenAPI document does not describe ${method} ${path} (${route}): it was written by an older build. Rebuild the app with tspc`,
    },
  },
  KILN033: {
    means: '`docs.ui` is set but the `swagger-ui-dist` package, which serves the docs page, is not installed',
    when: 'start-up',
    messages: {
      noFileSystem: () =>
        'docs.ui reads the swagger-ui-dist package from the file system, which this runtime does not have (Workers): serve the page as a static asset, or remove docs.ui',
      notInstalled: () =>
        'docs.ui needs the swagger-ui-dist package, which serves the docs page without a CDN: npm install swagger-ui-dist (or remove docs.ui)',
    },
  },
  KILN034: {
    means: 'a `docs` path (`docs.openapi`, `docs.ui` or a page asset) is already a route of the app',
    when: 'start-up',
    messages: {
      pathTaken: (path: string) => `docs: GET ${path} is already a route of the app; choose other docs.openapi / docs.ui paths`,
    },
  },
  KILN035: {
    means:
      'two middlewares describe different security schemes under one name, or a security scheme is not an OpenAPI Security Scheme Object',
    when: 'start-up',
    messages: {
      notASchemeObject: (name: string, where: string) =>
        `The security scheme '${name}' of a middleware of ${where} is not an OpenAPI Security Scheme Object (no "type")`,
      nameTaken: (name: string, existing: unknown, scheme: unknown, where: string) =>
        `Two different security schemes are named '${name}' (${JSON.stringify(existing)} and ${JSON.stringify(scheme)}, on ${where}): give each its own name`,
    },
  },
  KILN040: {
    means:
      '`req.setResponseHeader` got a name that is not an HTTP token, a value HTTP cannot carry, or a framing header Kiln writes itself',
    when: 'per request',
    messages: {
      headerRefused: (shown: string, reason: string) => `setResponseHeader(${shown}, ...) refused: ${reason}`,
    },
  },
  KILN041: {
    means: 'a response could not be sent as built (a header Node refuses): the request answered 500',
    when: 'per request',
    messages: {
      notSendable: (reason: string) => `A returned Response could not be sent as built: ${reason}`,
    },
  },
  KILN042: {
    means: 'a response status is not an integer from 200 to 599 (an HttpError-like object, a 1xx status): the request answered 500',
    when: 'per request',
    messages: {
      httpErrorStatus: (shown: string) =>
        `An HttpError with the status ${shown} was thrown; an HttpError status is an integer from 400 to 599`,
      responseStatus: (status: string) => `A returned Response has the status ${status}; Kiln sends 200 to 599`,
      routeStatus: (method: string, path: string, status: string) =>
        `${method} ${path} answered with the status ${status}; Kiln sends 200 to 599`,
    },
  },
  KILN043: {
    means: 'a returned Response has a body that is locked or already read: the request answered 500',
    when: 'per request',
    messages: {
      bodyUsed: () =>
        'A returned Response has a body that is locked or already read: return a new Response, or response.clone() before reading it',
    },
  },
  KILN044: {
    means: 'a thrown value could not be inspected (a Proxy whose traps throw): the request answered 500',
    when: 'per request',
    messages: {
      uninspectable: (failure: string) => `A thrown value could not be inspected (${failure})`,
    },
  },
  KILN046: {
    means:
      'a return value cannot be written as JSON (a bigint, a cycle, a getter or toJSON that throws): the request answered 500, and the error names the route',
    when: 'per request',
    messages: {
      notJson: (route: string, error: string) => `${route}: the return value cannot be written as JSON (${error})`,
    },
  },
  KILN047: {
    means:
      "a return value does not fit the route's declared return type under `typedResponses: 'assert'`: the request answered 500, and the error names the path of the first mismatch",
    when: 'per request',
    messages: {
      typeMismatch: (route: string, mismatch: string) => `${route}: ${mismatch}`,
    },
  },
  KILN050: {
    means: 'the `health` option of createServer is invalid (a path, a check, an interval), or a health path is already a route of the app',
    when: 'start-up',
    messages: {
      options: () => 'health: must be an object: { liveness?, readiness?, checks?, interval?, drainDelay? }',
      path: (name: string, value: unknown) => `health: ${name} must be a path starting with '/', or false; got ${JSON.stringify(value)}`,
      samePath: (path: string) => `health: liveness and readiness are the same path, ${path}`,
      milliseconds: (name: string, least: number, value: unknown) =>
        `health: ${name} must be a whole number of milliseconds of at least ${least}, got ${String(value)}`,
      checks: () => 'health: checks must be an object of checks by name',
      check: (name: string) => `health: checks.${name} must be a function or { check, timeout? }`,
      pathTaken: (path: string, handler: string) =>
        `health: GET ${path} (${handler}) is already a route of the app; choose another health.${handler} path`,
    },
  },
  KILN051: {
    means:
      'the environment does not give a valid configuration for `env<T>()`: one error lists every missing or invalid variable by name (values of secret-named variables never shown)',
    when: 'start-up',
    messages: {
      invalidEnvironment: (type: string, problems: readonly string[]) =>
        `The environment does not give a valid ${type} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      noEnvironment: () =>
        'env<T>(): this runtime has no process.env or Deno.env (Workers): pass the env binding, env<AppConfig>(env) in your fetch handler',
    },
  },
  KILN052: {
    means: '`env<T>()` was called without being compiled by `@kiln/core/transformer`, which writes the reader of `T`',
    when: 'start-up',
    messages: {
      envNotCompiled: () =>
        'env<T>() was not compiled by @kiln/core/transformer, which writes the reader of T: add it to compilerOptions.plugins (docs: guide/configuration.md)',
    },
  },
  KILN053: {
    means: '`listen({ reusePort: true })` on a runtime that cannot share a port between processes (Node before 22.12, or not Linux)',
    when: 'start-up',
    messages: {
      notLinux: (runtime: string, os: string) =>
        `listen({ reusePort: true }) needs Linux, where the kernel spreads connections between the processes; ${runtime} runs on ${os}: run one process per port, or a cluster behind a load balancer (docs: guide/scaling-out.md)`,
      nodeTooOld: (version: string) =>
        `listen({ reusePort: true }) needs Node 22.12 or later (server.listen's reusePort), this is Node ${version}: upgrade, or use node:cluster (docs: guide/scaling-out.md)`,
      reusePortOption: (value: unknown) => `listen(): reusePort must be true or false, got ${String(value)}`,
    },
  },
  KILN054: {
    means:
      'the `telemetry` option of createServer is invalid: `api` is not the `@opentelemetry/api` module, or `tracer`/`meter` is not one',
    when: 'start-up',
    messages: {
      options: () => "telemetry: must be an object: { api, tracer?, meter? } (import * as api from '@opentelemetry/api')",
      api: () =>
        "telemetry.api must be the @opentelemetry/api module (import * as api from '@opentelemetry/api'), with trace, context, propagation and metrics (docs: guide/telemetry.md)",
      tracer: () => 'telemetry.tracer must be an OpenTelemetry Tracer (api.trace.getTracer(name)) or false',
      meter: () => 'telemetry.meter must be an OpenTelemetry Meter (api.metrics.getMeter(name)) or false',
    },
  },
  KILN058: {
    means: "the `errors` option of createServer is neither 'json' (the default body) nor 'problem+json' (RFC 9457)",
    when: 'start-up',
    messages: {
      errorsOption: (value: string) =>
        `errors must be 'json' (the default body { error, message, data? }) or 'problem+json' (RFC 9457 problem details), got ${value}`,
    },
  },
  KILN059: {
    means: "an HttpError's problem details option (`type`, `title` or `instance`) is not a string, or `type` is not a URI reference",
    when: 'start-up or per request',
    messages: {
      notAString: (member: string, kind: string) => `HttpError: the problem member ${member} must be a string, got ${kind}`,
      typeNotUri: (value: string) =>
        `HttpError: type must be a URI reference (e.g. 'https://example.com/problems/out-of-credit' or 'about:blank'), got ${JSON.stringify(value.slice(0, 80))}`,
    },
  },
  KILN060: {
    means:
      "the OpenAPI document `docs` serves describes another error format than the server's `errors` option: the build and the server disagree",
    when: 'start-up',
    messages: {
      formatMismatch: (document: string, server: string) =>
        `The OpenAPI document describes errors as ${document}, but createServer has errors: '${server}': give the plugin entry (tsconfig.json or the bundler plugin) the same errors option and rebuild (docs: guide/openapi.md)`,
    },
  },
  KILN070: {
    means: 'the `trustProxy` setting is not a boolean, a hop count or a list of addresses/CIDR ranges',
    when: 'start-up',
    messages: {
      kind: (kind: string) => `trustProxy must be a boolean, a hop count or a list of addresses/CIDR ranges, got ${kind}`,
      hopCount: (value: unknown) => `trustProxy: a hop count must be a whole number of proxies (0 or more), got ${value}`,
      entryKind: (kind: string) => `trustProxy: every entry of the list must be a string, got ${kind}`,
      notAnAddress: (entry: string) => `trustProxy: '${entry}' is not an IP address or CIDR range (e.g. '10.0.0.0/8', '::1', 'loopback')`,
      prefixLength: (entry: string, width: number) => `trustProxy: '${entry}' has an invalid prefix length (0 to ${width})`,
    },
  },
  KILN080: {
    means: '`secureHeaders(options)` got an invalid option (an unknown name, a value a header cannot carry, a malformed CSP directive)',
    when: 'start-up',
    messages: {
      options: () => 'secureHeaders: options must be an object',
      unknownOption: (key: string, known: string) => `secureHeaders: unknown option '${key}' (the options are ${known})`,
      notAString: (option: string, kind: string) => `secureHeaders: ${option} must be a string or false; got ${kind}`,
      headerValue: (option: string, value: string) =>
        `secureHeaders: ${option} must be a header value (no control characters), or false; got ${JSON.stringify(value)}`,
      policy: () => 'secureHeaders: contentSecurityPolicy must be directives, a string or false',
      directiveName: (name: string) =>
        `secureHeaders: contentSecurityPolicy has a directive named ${JSON.stringify(name)}: directive names are lower-case, like 'script-src'`,
      directiveSources: (name: string) =>
        `secureHeaders: contentSecurityPolicy['${name}'] must be a list of sources without ';' or ',' (quote keywords: "'self'"), true or false`,
    },
  },
  KILN081: {
    means: '`csrf(options)` got an invalid option, or `csrfToken(req)` was called on a route without `csrf({ doubleSubmit: true })`',
    when: 'start-up or per request',
    messages: {
      options: () => 'csrf: options must be an object',
      trustedOrigins: () => 'csrf: trustedOrigins must be a list of origins',
      notAnOrigin: (origin: unknown) =>
        `csrf: trustedOrigins has ${JSON.stringify(origin)}, which is not an origin such as 'https://app.example'`,
      originAlone: (origin: unknown, alone: string) =>
        `csrf: trustedOrigins has ${JSON.stringify(origin)}: write the origin alone, ${JSON.stringify(alone)}`,
      doubleSubmit: () => 'csrf: doubleSubmit must be true, false or { header?, field?, cookie? }',
      doubleSubmitCookie: () => 'csrf: doubleSubmit.cookie must be a cookie name',
      noToken: () => 'csrfToken(req) needs csrf({ doubleSubmit: true }) among the middlewares of this route',
    },
  },
  KILN082: {
    means:
      'a cookie cannot be set as asked: a name that is not a token, an attribute that cannot be sent, or a `__Host-`/`__Secure-` prefix, `SameSite=None` or `Partitioned` rule broken',
    when: 'per request',
    messages: {
      refused: (name: string, reason: string) => `Cookie ${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}...` : name)}: ${reason}`,
    },
  },
  KILN083: {
    means: 'the secrets of `cookieSigner` or `session` are not a non-empty list of strings of at least 32 characters',
    when: 'start-up',
    messages: {
      noSecrets: (what: string) => `${what}: secrets must be a string or a non-empty list of strings (newest first)`,
      shortSecret: (what: string, index: number, shortest: number, got: string) =>
        `${what}: secret ${index} must be a string of at least ${shortest} characters (random, from an environment variable or a secret store), got ${got}`,
    },
  },
  KILN084: {
    means: '`session(options)` or a session store got an invalid option, or `req.session` was read on a route without `session()`',
    when: 'start-up or per request',
    messages: {
      options: () => 'session: options must be an object with secrets',
      maxAge: (value: unknown) => `session: maxAge must be a whole number of seconds above 0, got ${String(value)}`,
      store: () =>
        'session: store must be a MemorySessionStore, a RedisSessionStore, a CookieSessionStore or an object with get, set, touch and destroy',
      redisClient: () => 'RedisSessionStore needs { client }: an ioredis or a redis (node-redis) client',
      maxSessions: (value: unknown) => `MemorySessionStore maxSessions must be a whole number above 0, got ${String(value)}`,
      noSession: (method: string, path: string) =>
        `req.session needs session() among the middlewares of ${method} ${path} (the app's, its controller's or its own)`,
    },
  },
  KILN085: {
    means: 'a session kept in its cookie (CookieSessionStore) grew past the 4,096 bytes a browser keeps: the request answered 500',
    when: 'per request',
    messages: {
      cookieTooLarge: (bytes: number, largest: number) =>
        `session: the sealed session cookie would be ${bytes} bytes, more than browsers keep (${largest}): keep less in the session, or use a server store`,
    },
  },
  KILN086: {
    means:
      '`jwtGuard(options)` or `apiKeyGuard(options)` got an invalid option (no algorithm list, `none`, a key missing for an algorithm), or `req.claims` was read on a route without `jwtGuard()`',
    when: 'start-up or per request',
    messages: {
      jwtOptions: () => 'jwtGuard: options must be an object',
      noAlgorithms: () => "jwtGuard: algorithms is required: the list of algorithms accepted, such as ['RS256'] or ['HS256']",
      noneAlgorithm: () => "jwtGuard: 'none' is never accepted: an unsigned token proves nothing",
      unknownAlgorithm: (algorithm: unknown, known: string) =>
        `jwtGuard: unknown algorithm ${JSON.stringify(algorithm)} (accepted: ${known})`,
      noSecret: (algorithms: string) => `jwtGuard: ${algorithms} needs a secret`,
      shortSecret: () => 'jwtGuard: secret must be a string or bytes of at least 32 characters (bytes)',
      secretWithoutHmac: () => 'jwtGuard: a secret is given but no HS algorithm is accepted',
      noPublicKey: (algorithms: string) => `jwtGuard: ${algorithms} needs a publicKey or a jwks`,
      keyAndJwks: () => 'jwtGuard: give a publicKey or a jwks, not both',
      jwksUrl: (url: string) => `jwtGuard: jwks.url must be an http(s) URL, got ${JSON.stringify(url)}`,
      clockTolerance: () => 'jwtGuard: clockTolerance must be a number of seconds, 0 or more',
      apiKeys: () => 'apiKeyGuard: keys must be a non-empty list of keys of at least 16 characters, or a function (key, req) => boolean',
      apiKeyHeader: (header: string) => `apiKeyGuard: header ${JSON.stringify(header)} is not a header name`,
      noClaims: (method: string, path: string) => `req.claims needs jwtGuard() among the middlewares of ${method} ${path}`,
    },
  },
  KILN087: {
    means: '`jwtGuard` verified a token and the optional peer dependency `jose` is not installed: the request answered 500',
    when: 'per request',
    messages: {
      noJose: (reason: string) => `jwtGuard needs the optional peer dependency 'jose' (npm install jose): ${reason}`,
    },
  },
  KILN088: {
    means:
      'a `TopicHub` or `redisTransport` got an invalid option, a topic that is not a non-empty string, a message JSON cannot carry, or was used after `close()`',
    when: 'start-up or per request',
    messages: {
      options: () => 'TopicHub: options must be an object',
      bufferSize: (value: unknown) => `TopicHub: bufferSize must be a whole number of messages above 0, got ${String(value)}`,
      overflow: (value: unknown) => `TopicHub: overflow must be 'end' or 'drop-oldest', got ${JSON.stringify(value) ?? String(value)}`,
      onError: () => 'TopicHub: onError must be a function (error, topic) => void',
      transport: () => 'TopicHub: transport must have start, publish, subscribe, unsubscribe and close (redisTransport(...) makes one)',
      subscribeOptions: () => 'TopicHub: subscribe options must be an object ({ signal, bufferSize, overflow })',
      signal: () => 'TopicHub: signal must be an AbortSignal (such as req.signal)',
      topic: (got: string) => `TopicHub: a topic must be a non-empty string, got ${got}`,
      unsendable: (topic: string, kind: string) =>
        `TopicHub: the message published to ${JSON.stringify(topic)} is ${kind}, which JSON cannot carry to the other processes`,
      closed: (what: string) => `TopicHub: ${what}() after close()`,
      redisClient: (role: string) => `redisTransport: ${role} must be an ioredis or a redis (node-redis) client`,
      prefix: (kind: string) => `redisTransport: prefix must be a string, got ${kind}`,
      sameClient: () =>
        'redisTransport: publisher and subscriber must be two connections (Redis keeps a subscribing connection for pub/sub alone): pass client.duplicate() as subscriber',
    },
  },
  KILN089: {
    means: '`@Sse(options)` got an invalid option: a `heartbeat` or `retry` that is not a whole number of milliseconds',
    when: 'start-up',
    messages: {
      options: () => '@Sse: options must be an object ({ heartbeat, retry })',
      heartbeat: (value: unknown) =>
        `@Sse: heartbeat must be a whole number of milliseconds from 0 (none) to 2147483647, got ${String(value)}`,
      retry: (value: unknown) => `@Sse: retry must be a whole number of milliseconds, 0 or more, got ${String(value)}`,
    },
  },
  KILN090: {
    means:
      '`sseEvent(data, fields)` got a field an event cannot carry: an `event` or `id` with a line break (or an `id` with NUL), a `retry` that is not a whole number',
    when: 'per request',
    messages: {
      fields: () => 'sseEvent: fields must be an object ({ event, id, retry })',
      notAString: (field: string, kind: string) => `sseEvent: ${field} must be a string, got ${kind}`,
      lineBreak: (field: string, value: string) =>
        `sseEvent: ${field} must be one line (no CR or LF${field === 'id' ? ', no NUL' : ''}), got ${value}`,
      retry: (value: unknown) => `sseEvent: retry must be a whole number of milliseconds, 0 or more, got ${String(value)}`,
    },
  },
  KILN091: {
    means:
      "the handler of an `@Sse()` route returned something other than an async iterable (an `async *` method's generator): the request answered 500",
    when: 'per request',
    messages: {
      notIterable: (route: string, kind: string) =>
        `${route} is an @Sse() route: its handler must return an async iterable (write it as an async * method), got ${kind}`,
    },
  },
  KILN093: {
    means: "a `@WebSocket` route's handler did not return its connection's handlers (`SocketHandlers`): the upgrade answered 500",
    when: 'per request',
    messages: {
      notHandlers: (route: string, kind: string) =>
        `${route} is a @WebSocket route: it must return the connection's handlers ({ open, message, close }), got ${kind}`,
    },
  },
  KILN094: {
    means: 'the `webSocket` option of `createServer` is invalid',
    when: 'start-up',
    messages: {
      notAnObject: (value: unknown) => `webSocket must be an object of WebSocket limits, got ${String(value)}`,
      unknownOption: (key: string, known: string) => `webSocket.${key} is not a WebSocket option; the options are ${known}`,
      wholeNumber: (option: string, least: number, value: unknown) =>
        `webSocket.${option} must be a whole number of at least ${least}, got ${String(value)}`,
      hub: (kind: string) => `webSocket.hub must be a TopicHub (new TopicHub() from @kiln/core/realtime), got ${kind}`,
    },
  },
  KILN095: {
    means: '`socket.close(code)` was given a code an application may not send (1000 and 3000–4999 are allowed)',
    when: 'per request',
    messages: {
      closeCode: (code: unknown) =>
        `socket.close(code): an application closes with 1000 or a code from 3000 to 4999 (RFC 6455 §7.4.2), got ${String(code)}`,
    },
  },
  KILN096: {
    means: 'the application declares `@WebSocket` routes and listens on Node, where the optional peer dependency `ws` is not installed',
    when: 'start-up',
    messages: {
      noWs: (reason: string) => `@WebSocket routes on Node need the optional peer dependency 'ws' (npm install ws): ${reason}`,
    },
  },
  KILN097: {
    means: 'the `allowedOrigins` option of `createServer({ webSocket })` or of a `@WebSocket` route is invalid',
    when: 'start-up',
    messages: {
      kind: (where: string, kind: string) =>
        `${where} must be an origin ('https://app.example.com'), a RegExp, a list of them, a function (origin, req) => boolean, ` +
        `or '*' for any origin; got ${kind}`,
      notAnOrigin: (where: string, value: string) =>
        `${where}: ${JSON.stringify(value)} is not an origin: name the scheme, host and port ('https://app.example.com'), ` +
        `or 'null' for sandboxed frames and file: pages`,
      originAlone: (where: string, value: string, origin: string) =>
        `${where}: ${JSON.stringify(value)} is not an origin (scheme, host and port, no path or trailing slash): write ${JSON.stringify(origin)}`,
      routeOptions: (route: string, kind: string) => `${route}: route options must be an object ({ allowedOrigins }), got ${kind}`,
      unknownRouteOption: (route: string, key: string) => `${route}: ${key} is not a WebSocket route option; the option is allowedOrigins`,
    },
  },
  KILN098: {
    means: 'an `allowedOrigins` function returned (or resolved to) something other than true or false: the upgrade answered 500',
    when: 'per request',
    messages: {
      notBoolean: (where: string, kind: string) => `${where}: the function must return (or resolve to) true or false, got ${kind}`,
    },
  },
} as const satisfies Record<`KILN0${number}`, ErrorEntry>;

export type RuntimeErrorCode = keyof typeof runtimeErrors;

type Messages<C extends RuntimeErrorCode> = (typeof runtimeErrors)[C]['messages'];
type MessageName<C extends RuntimeErrorCode> = keyof Messages<C> & string;
type MessageArguments<C extends RuntimeErrorCode, M extends MessageName<C>> = Messages<C>[M] extends (...args: infer A) => string
  ? A
  : never;

/** Each code, what it means: the table docs/reference/diagnostics.md documents. */
export const runtimeErrorCodes: Readonly<Record<RuntimeErrorCode, string>> = Object.freeze(
  Object.fromEntries(Object.entries(runtimeErrors).map(([code, entry]) => [code, entry.means])) as Record<RuntimeErrorCode, string>,
);

/**
 * A mistake in how the application is declared or configured, found at start-up, or (KILN040–047)
 * a response Kiln could not send as the application built it, found while answering a request.
 */
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

function message(code: RuntimeErrorCode, name: string, args: readonly unknown[]): string {
  return (runtimeErrors[code].messages as Record<string, (...args: unknown[]) => string>)[name]!(...args);
}

/** The KilnError of `code` with its message `name`, written from `args`. */
export function kilnError<C extends RuntimeErrorCode, M extends MessageName<C>>(
  code: C,
  name: M,
  ...args: MessageArguments<C, M>
): KilnError {
  return atCaller(new KilnError(code, message(code, name, args)), kilnError);
}

/** {@link kilnError}, with the error that caused it as its `cause`. */
export function kilnErrorFrom<C extends RuntimeErrorCode, M extends MessageName<C>>(
  cause: unknown,
  code: C,
  name: M,
  ...args: MessageArguments<C, M>
): KilnError {
  return atCaller(new KilnError(code, message(code, name, args), { cause }), kilnErrorFrom);
}

/** The stack of `error` as if it were made where `factory` was called: a trace starts at the line that throws. */
function atCaller(error: KilnError, factory: Function): KilnError {
  (Error as { captureStackTrace?: (target: object, constructorOpt?: Function) => void }).captureStackTrace?.(error, factory);
  return error;
}
