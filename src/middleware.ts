import type { KilnRequest } from './request/kiln-request.js';

/**
 * A functional middleware. Return `undefined` to continue; return a `Response` or any other value
 * to end the chain (a value is sent as JSON 200). `await next()` runs the rest of the chain and
 * gives its `Response`, whose headers may be changed (the body is not copied).
 *
 * @example
 * ```ts
 * const timing: MiddlewareFunction = async (req, next) => {
 *   const started = performance.now();
 *   const response = await next();
 *   response.headers.set('server-timing', `total;dur=${performance.now() - started}`);
 *   return response;
 * };
 * ```
 */
export type MiddlewareFunction = (req: KilnRequest, next: () => Promise<Response>) => unknown;

/** A class-based middleware: a class marked with `@Middleware()` whose `use` method is bound like a handler. */
export interface MiddlewareClass {
  // Constructor parameters are injected from their declared types (see Dependency injection).
  new (...args: any[]): { use(...args: any[]): unknown };
}

export type MiddlewareLike = MiddlewareFunction | MiddlewareClass;
