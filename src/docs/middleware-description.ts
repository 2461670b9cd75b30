// How a middleware tells the served OpenAPI document what it adds to every route it guards: only
// the runtime knows which application, controller and route middlewares a route runs, so
// `createServer` merges these descriptions into the document the build wrote.
import type { MiddlewareFunction } from '../middleware.js';

/**
 * The property under which a middleware function carries its `MiddlewareOpenApi`. A global
 * symbol, so a package (such as `@kiln/rate-limit`) can set it without importing Kiln at run time.
 */
export const openApiDescription: unique symbol = Symbol.for('kiln.openapi') as never;

/** What a middleware adds to each operation it guards. */
export interface MiddlewareOpenApi {
  /** Responses it answers itself, by status (`'429'`), as OpenAPI Response Objects. */
  readonly responses?: Readonly<Record<string, object>>;
  /** Headers it adds to every response of the route, as OpenAPI Header Objects by name. */
  readonly headers?: Readonly<Record<string, object>>;
}

/**
 * Attaches an OpenAPI description to a functional middleware and returns the middleware.
 *
 * @example
 * ```ts
 * const requireToken = describeMiddleware(
 *   (req) => { if (!req.headers.get('authorization')) throw new HttpError(401, 'Missing token'); },
 *   { responses: { 401: { description: 'Missing token' } } },
 * );
 * ```
 */
export function describeMiddleware<M extends MiddlewareFunction>(middleware: M, description: MiddlewareOpenApi): M {
  Object.defineProperty(middleware, openApiDescription, { value: description, configurable: true });
  return middleware;
}

/** The description a middleware carries, if any. */
export function middlewareDescription(middleware: unknown): MiddlewareOpenApi | undefined {
  return typeof middleware === 'function' ? (middleware as { [openApiDescription]?: MiddlewareOpenApi })[openApiDescription] : undefined;
}
