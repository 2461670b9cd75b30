// How a middleware tells the served OpenAPI document what it adds to every route it guards: only
// the runtime knows which application, controller and route middlewares a route runs, so
// `createServer` merges these descriptions into the document the build wrote.
import type { MiddlewareLike } from '../middleware.js';

/**
 * The property under which a middleware function carries its `MiddlewareOpenApi`. A global
 * symbol, so a package (such as `@kiln/rate-limit`) can set it without importing Kiln at run time.
 */
export const openApiDescription: unique symbol = Symbol.for('kiln.openapi') as never;

/**
 * How a client proves who it is, as an OpenAPI Security Scheme Object: a bearer token
 * (`{ type: 'http', scheme: 'bearer' }`), an API key in a header, a query parameter or a cookie
 * (`{ type: 'apiKey', in: 'header', name: 'x-api-key' }`), or any other scheme OpenAPI defines.
 */
export type SecurityScheme =
  | { readonly type: 'http'; readonly scheme: string; readonly bearerFormat?: string; readonly description?: string }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string; readonly description?: string }
  | { readonly type: 'oauth2' | 'openIdConnect' | 'mutualTLS'; readonly description?: string; readonly [field: string]: unknown };

/** What a middleware adds to each operation it guards. */
export interface MiddlewareOpenApi {
  /**
   * The security schemes it checks, by the name the document gives them (`bearerAuth`). Several
   * are alternatives: any one of them lets a request through. Each becomes an entry of
   * `components.securitySchemes`, and every operation the middleware runs for gets a `security`
   * requirement (with two guards on one route, both are required).
   */
  readonly security?: Readonly<Record<string, SecurityScheme>>;
  /** Responses it answers itself, by status (`'429'`), as OpenAPI Response Objects. */
  readonly responses?: Readonly<Record<string, object>>;
  /** Headers it adds to every response of the route, as OpenAPI Header Objects by name. */
  readonly headers?: Readonly<Record<string, object>>;
}

/**
 * Attaches an OpenAPI description to a middleware (a function, or a `@Middleware()` class) and
 * returns the middleware.
 *
 * @example
 * ```ts
 * const requireToken = describeMiddleware(
 *   (req) => { if (!req.headers.get('authorization')) throw new HttpError(401, 'Missing token'); },
 *   {
 *     security: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
 *     responses: { 401: { description: 'Missing token' } },
 *   },
 * );
 * ```
 */
export function describeMiddleware<M extends MiddlewareLike>(middleware: M, description: MiddlewareOpenApi): M {
  Object.defineProperty(middleware, openApiDescription, { value: description, configurable: true });
  return middleware;
}

/** The description a middleware carries, if any. */
export function middlewareDescription(middleware: unknown): MiddlewareOpenApi | undefined {
  return typeof middleware === 'function' ? (middleware as { [openApiDescription]?: MiddlewareOpenApi })[openApiDescription] : undefined;
}
