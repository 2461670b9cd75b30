import type { Binder } from './binder.js';
import type { KilnRequest, RequestCore } from './request/kiln-request.js';
import { kSerializer, kStatus } from './symbols.js';
import type { Serializer } from './response/compiled-serializer.js';
import { errorToWebResponse, valueToWebResponse } from './response/web-response.js';

/** A middleware as the dispatcher calls it: class middlewares are wrapped into this shape at start-up. */
export type ChainMiddleware = (req: KilnRequest, next: () => Promise<Response>) => unknown;

/** One route, resolved at start-up: everything a request needs, nothing left to look up. */
export interface CompiledRoute {
  readonly method: string;
  readonly path: string;
  /** `Controller.method`, for messages and logs. */
  readonly name: string;
  readonly controller: Function;
  readonly handlerName: string;
  readonly instance: object;
  readonly handler: (...args: unknown[]) => unknown;
  readonly binder: Binder | undefined;
  /** The typed-response serialiser of the handler's value; undefined sends it with JSON.stringify. */
  readonly serializer: Serializer | undefined;
  readonly status: number | undefined;
  readonly strict: boolean;
  readonly middlewares: readonly ChainMiddleware[];
  readonly report: (error: unknown, req: RequestCore, route: CompiledRoute) => void;
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

// hot path: binder, then handler; stays synchronous unless one of them is async
function invokeHandler(route: CompiledRoute, req: RequestCore): unknown {
  req[kStatus] = route.status;
  req[kSerializer] = route.serializer;
  if (route.binder === undefined) return route.handler.call(route.instance);
  const args = route.binder(req as unknown as KilnRequest, route.strict);
  if (isPromiseLike(args)) return args.then((resolved) => route.handler.apply(route.instance, resolved as unknown[]));
  return route.handler.apply(route.instance, args);
}

/** After a middleware: its own value ends the chain; `undefined` goes on to the next step. */
function continueAfter(route: CompiledRoute, req: RequestCore, index: number, value: unknown): unknown {
  if (value === undefined) return runFrom(route, req, index + 1);
  // A middleware's own value is a plain 200, whatever status the handler would have had.
  if (!(value instanceof Response)) {
    req[kStatus] = undefined;
    // not the handler's value: its type says nothing about it
    req[kSerializer] = undefined;
  }
  return value;
}

// hot path: a middleware that declares no `next` parameter (the rate limiter, class middlewares)
// is called without one, so passing through it allocates nothing
function runFrom(route: CompiledRoute, req: RequestCore, index: number): unknown {
  if (index === route.middlewares.length) return invokeHandler(route, req);
  const middleware = route.middlewares[index]!;
  if (middleware.length < 2) {
    const result = (middleware as (req: KilnRequest) => unknown)(req as unknown as KilnRequest);
    return isPromiseLike(result)
      ? result.then((value) => continueAfter(route, req, index, value))
      : continueAfter(route, req, index, result);
  }
  let downstream: Promise<Response> | undefined;
  const next = (): Promise<Response> =>
    (downstream ??= new Promise<unknown>((resolve) => resolve(runFrom(route, req, index + 1))).then(
      (value) => valueToWebResponse(req, value),
      (error) => errorToWebResponse(req, error, (e) => route.report(e, req, route)),
    ));
  const settle = (value: unknown): unknown =>
    // once next() has run, the downstream Response is the result unless the middleware returned its own
    value === undefined && downstream !== undefined ? downstream : continueAfter(route, req, index, value);
  const result = middleware(req as unknown as KilnRequest, next);
  return isPromiseLike(result) ? result.then(settle) : settle(result);
}

/**
 * Runs a route's middlewares (application → controller → route) and its handler. Returns the
 * handler's (or a short-circuiting middleware's) value, a Response, or a promise of one; throws
 * or rejects with what they threw.
 */
export function dispatch(route: CompiledRoute, req: RequestCore): unknown {
  return route.middlewares.length === 0 ? invokeHandler(route, req) : runFrom(route, req, 0);
}
