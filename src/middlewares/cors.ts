import type { MiddlewareFunction } from '../middleware.js';
import { isPromiseLike } from '../is-promise-like.js';
import type { KilnRequest } from '../request/kiln-request.js';
import { checkCorsOptions, headerList, type CorsOptions } from './cors-options.js';
import { matchesOrigin, ownOriginRules, type OriginRules } from '../security/origin-rules.js';

const defaultMethods = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** The `Access-Control-Allow-Origin` for a request's origin, or `undefined` to allow none. */
function allowedOrigin(rules: OriginRules, origin: string | undefined): string | undefined {
  return origin !== undefined && matchesOrigin(rules, origin) ? origin : undefined;
}

/**
 * A named origin grants only the request that comes from it: any other origin (or none) is
 * refused, as a list would refuse it, so that caches and non-browser clients never see a grant
 * for an origin that was not allowed.
 */
function named(name: string, origin: string | undefined): string | undefined {
  return name === origin ? name : undefined;
}

/**
 * Cross-origin resource sharing as a functional middleware. Put it first among the application
 * middlewares, before `rateLimit()`: preflights are then answered without being counted, and
 * every answer (a 429 or a 404 included) carries the CORS headers the browser needs to read it.
 *
 * A preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered here with 204 and the
 * `Access-Control-Allow-*` headers. Any other request goes on; its response gets
 * `Access-Control-Allow-Origin` (with `Vary: Origin` whenever the answer depends on the origin),
 * `Access-Control-Allow-Credentials` and `Access-Control-Expose-Headers`, recorded on the request
 * so that no `Response` is created for them.
 *
 * @example
 * ```ts
 * createServer({
 *   controllers,
 *   middlewares: [cors({ origin: ['https://app.example.com'], credentials: true }), rateLimit()],
 * });
 * ```
 */
export function cors(options: CorsOptions = {}): MiddlewareFunction {
  checkCorsOptions(options);
  const origin = options.origin ?? '*';
  const methods = headerList('methods', options.methods) ?? defaultMethods;
  const allowedHeaders = headerList('allowedHeaders', options.allowedHeaders);
  const exposedHeaders = headerList('exposedHeaders', options.exposedHeaders);
  const credentials = options.credentials === true;
  const maxAge = options.maxAge === undefined ? undefined : String(options.maxAge);
  const answerPreflights = options.preflight ?? true;
  const preflightStatus = options.optionsSuccessStatus ?? 204;
  // A fixed '*' is the same answer for every origin; anything else varies with it.
  const varies = origin !== '*';

  const rules = typeof origin === 'string' || typeof origin === 'boolean' || typeof origin === 'function' ? [] : ownOriginRules(origin);

  const preflight = (req: KilnRequest, allowOrigin: string | undefined): Response => {
    const headers = new Headers();
    // A refused origin learns nothing: no methods, headers, credentials or cache lifetime.
    if (allowOrigin !== undefined) {
      headers.set('access-control-allow-origin', allowOrigin);
      if (credentials) headers.set('access-control-allow-credentials', 'true');
      headers.set('access-control-allow-methods', methods);
      const requested = req.headers.get('access-control-request-headers');
      const allowHeaders = allowedHeaders ?? requested ?? undefined;
      if (allowHeaders) headers.set('access-control-allow-headers', allowHeaders);
      if (maxAge !== undefined) headers.set('access-control-max-age', maxAge);
    }
    const vary = [varies ? 'Origin' : '', allowedHeaders === undefined ? 'Access-Control-Request-Headers' : ''].filter(Boolean).join(', ');
    if (vary) headers.set('vary', vary);
    headers.set('content-length', '0');
    return new Response(null, { status: preflightStatus, headers });
  };

  const answer = (req: KilnRequest, allowOrigin: string | undefined): Response | undefined => {
    if (answerPreflights && req.method === 'OPTIONS' && req.headers.get('access-control-request-method') !== null) {
      return preflight(req, allowOrigin);
    }
    if (varies) req.setResponseHeader('vary', 'Origin');
    if (allowOrigin === undefined) return undefined;
    req.setResponseHeader('access-control-allow-origin', allowOrigin);
    if (credentials) req.setResponseHeader('access-control-allow-credentials', 'true');
    if (exposedHeaders !== undefined) req.setResponseHeader('access-control-expose-headers', exposedHeaders);
    return undefined;
  };

  return function corsMiddleware(req: KilnRequest) {
    if (origin === false) return undefined;
    const requestOrigin = req.headers.get('origin') ?? undefined;
    if (origin === '*') return answer(req, '*');
    if (origin === true) return answer(req, requestOrigin);
    if (typeof origin === 'string') return answer(req, named(origin, requestOrigin));
    if (typeof origin !== 'function') return answer(req, allowedOrigin(rules, requestOrigin));
    const decided = origin(requestOrigin, req);
    const toAllowed = (value: boolean | string): string | undefined =>
      value === true ? requestOrigin : value === false ? undefined : value === '*' ? '*' : named(value, requestOrigin);
    return isPromiseLike(decided)
      ? Promise.resolve(decided).then((value) => answer(req, toAllowed(value)))
      : answer(req, toAllowed(decided));
  };
}
