// Data that the application's own decorators attach to routes (`@Roles('admin')`), read back by a
// middleware from `req.route`. Stored in the class's TC39 decorator metadata (`Symbol.metadata`,
// which Kiln polyfills where the runtime lacks it), under keys private to each decorator.
import { kilnError } from '../kiln-error.js';
import type { RouteInfo } from '../router/route-info.js';

/** A decorator for controller classes and their route methods. */
export type RouteMetadataTarget = (target: unknown, context: ClassDecoratorContext | ClassMethodDecoratorContext) => void;

/** What `createRouteMetadata` returns: a decorator factory with a typed reader. */
export interface RouteMetadata<Args extends unknown[], T> {
  /** Attaches the value built from `args` to a controller class (all its routes) or to one route method. */
  (...args: Args): RouteMetadataTarget;
  /**
   * The value of a route (`req.route`): the method's, else its class's, combined by `merge` when
   * both have one; `undefined` when neither has one, or when no route matched (`req.route` is `undefined`).
   */
  get(route: RouteInfo | undefined): T | undefined;
}

/** How values combine. */
export interface RouteMetadataOptions<T> {
  /**
   * Combines two values for one route: the outer one (the class's, or the one applied first
   * to the same target) and the inner one (the method's, or the one applied next). Default: the
   * inner one replaces the outer one.
   */
  merge?: (outer: T, inner: T) => T;
  /** A name for messages and for the metadata keys (default `'route metadata'`). */
  name?: string;
}

type Metadata = Record<symbol, unknown>;

/**
 * Makes a decorator that attaches data to routes, and a typed reader for middlewares. Put it on
 * a controller class (every route of the class) or on a route method. A subclass inherits its
 * parent's values; its own class value replaces the parent's, and an overriding method's
 * own value replaces the inherited method's.
 *
 * @example
 * ```ts
 * export const Roles = createRouteMetadata((...roles: string[]) => roles);
 *
 * export const rolesGuard: MiddlewareFunction = (req) => {
 *   const roles = Roles.get(req.route); // string[] | undefined
 *   if (roles !== undefined && !roles.some((role) => req.user?.roles.includes(role))) throw new HttpError(403, 'Forbidden');
 * };
 *
 * @Controller('/admin', rolesGuard)
 * @Roles('admin')
 * class AdminController {
 *   @Get('/stats') @Roles('admin', 'auditor') stats() { ... }
 * }
 * ```
 */
export function createRouteMetadata<T>(options?: RouteMetadataOptions<T>): RouteMetadata<[value: T], T>;
export function createRouteMetadata<Args extends unknown[], T>(
  build: (...args: Args) => T,
  options?: RouteMetadataOptions<T>,
): RouteMetadata<Args, T>;
export function createRouteMetadata<Args extends unknown[], T>(
  buildOrOptions?: ((...args: Args) => T) | RouteMetadataOptions<T>,
  maybeOptions?: RouteMetadataOptions<T>,
): RouteMetadata<Args, T> {
  const build = typeof buildOrOptions === 'function' ? buildOrOptions : (...args: Args) => args[0] as T;
  const options = (typeof buildOrOptions === 'function' ? maybeOptions : buildOrOptions) ?? {};
  const { merge, name = 'route metadata' } = options;
  if (merge !== undefined && typeof merge !== 'function') throw kilnError('KILN008', 'metadataMerge', name);
  const kClass = Symbol(`${name} (class)`);
  const kMethods = Symbol(`${name} (methods)`);
  const combine = (outer: T | undefined, inner: T): T => (outer !== undefined && merge !== undefined ? merge(outer, inner) : inner);

  const decorator = ((...args: Args): RouteMetadataTarget => {
    const value = build(...args);
    return (_target, context) => {
      const metadata = context?.metadata as Metadata | undefined;
      if (metadata === undefined) throw kilnError('KILN008', 'legacyDecorators', name);
      if (context.kind === 'class') {
        const own = Object.hasOwn(metadata, kClass) ? (metadata[kClass] as T) : undefined;
        metadata[kClass] = combine(own, value);
        return;
      }
      if (context.kind !== 'method' || context.static)
        throw kilnError('KILN008', 'metadataTarget', name, String((context as { name?: unknown }).name));
      // A subclass gets its own copy of the inherited table, so its decorators never change its parent's routes.
      let methods = metadata[kMethods] as Map<string, T> | undefined;
      if (!Object.hasOwn(metadata, kMethods)) {
        methods = new Map(methods);
        metadata[kMethods] = methods;
      }
      const method = String(context.name);
      methods!.set(method, combine(methods!.get(method), value));
    };
  }) as RouteMetadata<Args, T>;

  // Decorators ran when the classes were defined: a route's value never changes, so it is read once.
  const cache = new WeakMap<RouteInfo, { value: T | undefined }>();
  decorator.get = (route) => {
    if (route === undefined) return undefined;
    let cached = cache.get(route);
    if (cached === undefined) {
      const metadata = (route.controller as unknown as Record<symbol, Metadata | undefined>)[Symbol.metadata];
      const outer = metadata?.[kClass] as T | undefined;
      const inner = (metadata?.[kMethods] as Map<string, T> | undefined)?.get(route.handler);
      cached = { value: inner === undefined ? outer : combine(outer, inner) };
      cache.set(route, cached);
    }
    return cached.value;
  };
  return decorator;
}
