import { isDocsRoute } from '../openapi/docs-routes.js';
import type { MiddlewareFunction } from '../middleware.js';
import type { KilnRequest } from '../request/kiln-request.js';
import type { RouteInfo } from '../router/route-info.js';
import { createRouteMetadata } from '../decorators/route-metadata.js';
import { resolveSecureHeaders, type SecureHeadersOptions } from './secure-headers-options.js';

/**
 * Per-route changes to `secureHeaders()`: put on a controller class or a route method; its options
 * are merged over the middleware's (the method's over the class's).
 *
 * @example
 * ```ts
 * @Get('/embed') @SecureHeaders({ xFrameOptions: false, contentSecurityPolicy: { 'frame-ancestors': ['https://partner.example'] } })
 * embed() { ... }
 * ```
 */
export const SecureHeaders = createRouteMetadata((options: SecureHeadersOptions) => options, {
  name: 'SecureHeaders',
  merge: (outer, inner) => ({ ...outer, ...inner }),
});

type Resolved = ReturnType<typeof resolveSecureHeaders>;

/**
 * Security headers on every answer: `Strict-Transport-Security`, `X-Content-Type-Options`,
 * `Referrer-Policy`, `Cross-Origin-Opener-Policy`, `Cross-Origin-Resource-Policy`,
 * `X-Frame-Options`, a `Content-Security-Policy` and a few more (see SecureHeadersOptions for each
 * default). Put it first among the application middlewares: the headers are recorded on the
 * request before anything else runs, so that 404s, 405s, errors thrown by later middlewares or
 * handlers, and the rate limiter's 429s carry them too. `@SecureHeaders({...})` changes them for
 * one controller or route. The docs page keeps its own policy.
 *
 * @example
 * ```ts
 * createServer({
 *   controllers,
 *   middlewares: [secureHeaders({ contentSecurityPolicy: { 'img-src': ["'self'", 'data:'] } }), cors(), rateLimit()],
 * });
 * ```
 */
export function secureHeaders(options: SecureHeadersOptions = {}): MiddlewareFunction {
  const base = resolveSecureHeaders(options);
  // Each route's own options are merged and checked once, on its first request.
  const byRoute = new WeakMap<RouteInfo, Resolved>();
  const forRoute = (route: RouteInfo | undefined): Resolved => {
    const own = SecureHeaders.get(route);
    if (own === undefined) return base;
    let resolved = byRoute.get(route!);
    if (resolved === undefined) {
      resolved = resolveSecureHeaders({ ...options, ...own });
      byRoute.set(route!, resolved);
    }
    return resolved;
  };
  // hot path: about ten recorded headers per request, no allocation for a route without overrides
  return function secureHeadersMiddleware(req: KilnRequest) {
    const route = req.route;
    const { headers, policy } = forRoute(route);
    for (let i = 0; i < headers.length; i += 2) req.setResponseHeader(headers[i]!, headers[i + 1]!);
    if (policy !== undefined && !isDocsRoute(route)) req.setResponseHeader(policy[0], policy[1]);
    return undefined;
  };
}
