import { kController, kMethods, kMiddleware } from './symbols.js';
import type { ControllerDeclaration } from './decorators/controller.js';
import type { MethodDeclarations } from './decorators/method-declaration.js';
import type { ChainMiddleware, CompiledRoute } from './dispatch.js';
import { isPromiseLike } from './dispatch.js';
import type { KilnRequest } from './request/kiln-request.js';
import type { MiddlewareLike } from './middleware.js';
import { joinRoutePath, routeParamNames, routeShape } from './router/route-path.js';
import { KilnError } from './kiln-error.js';

/** One row of `app.routes`. */
export interface RouteInfo {
  readonly method: string;
  readonly path: string;
  /** The controller class. */
  readonly controller: Function;
  /** The handler's method name. */
  readonly handler: string;
}

export interface RouteTableOptions {
  strict: boolean;
  report: CompiledRoute['report'];
}

const pluginHint =
  '@kiln/core/transformer did not run on this file. Add { "transform": "@kiln/core/transformer", "transformProgram": true } ' +
  'to compilerOptions.plugins in tsconfig.json and build with tspc (ts-patch).';

function metadataOf(target: Function): DecoratorMetadataObject | undefined {
  return (target as unknown as Record<symbol, DecoratorMetadataObject | null | undefined>)[Symbol.metadata] ?? undefined;
}

function describe(target: unknown): string {
  return typeof target === 'function' ? target.name || '(anonymous)' : String(target);
}

/**
 * Turns middleware declarations into the `(req, next)` shape. A class middleware is instantiated
 * once per server and its `use` is called with the arguments its compiled binder produces.
 */
class MiddlewareResolver {
  #instances = new Map<Function, ChainMiddleware>();
  constructor(private readonly strict: boolean) {}

  resolve(middleware: MiddlewareLike, where: string): ChainMiddleware {
    if (typeof middleware !== 'function') {
      throw new KilnError('KILN005', `${where}: a middleware must be a function or a class with a use() method, got ${typeof middleware}`);
    }
    const use = (middleware as { prototype?: { use?: unknown } }).prototype?.use;
    if (typeof use !== 'function') return middleware as ChainMiddleware;
    const cached = this.#instances.get(middleware);
    if (cached !== undefined) return cached;

    const metadata = metadataOf(middleware);
    const name = `${describe(middleware)}.use`;
    if (metadata?.[kMiddleware] !== true) {
      throw new KilnError('KILN004', `${where}: class middleware ${describe(middleware)} must be marked with @Middleware()`);
    }
    const binder = (metadata[kMethods] as MethodDeclarations | undefined)?.get('use')?.binder;
    if (binder === undefined && use.length > 0) {
      throw new KilnError('KILN003', `Middleware ${name} declares ${use.length} parameter(s) but has no compiled binder: ${pluginHint}`);
    }
    const instance = new (middleware as new () => object)();
    const strict = this.strict;
    const resolved: ChainMiddleware =
      binder === undefined
        ? () => use.call(instance)
        : (req: KilnRequest) => {
            const args = binder(req, strict);
            return isPromiseLike(args) ? args.then((resolved) => use.apply(instance, resolved as unknown[])) : use.apply(instance, args);
          };
    this.#instances.set(middleware, resolved);
    return resolved;
  }
}

/**
 * Reads the decorators' metadata of every controller into compiled routes. Everything that can
 * be wrong with a declaration is found here, at start-up, with a message that says what to change.
 */
export function buildRouteTable(
  controllers: readonly Function[],
  appMiddlewares: readonly MiddlewareLike[],
  options: RouteTableOptions,
): CompiledRoute[] {
  const resolver = new MiddlewareResolver(options.strict);
  const appChain = appMiddlewares.map((m, i) => resolver.resolve(m, `middlewares[${i}]`));
  const routes: CompiledRoute[] = [];
  const seen = new Map<string, string>();

  for (const controller of controllers) {
    if (typeof controller !== 'function') throw new KilnError('KILN007', `controllers must be classes, got ${typeof controller}`);
    const metadata = metadataOf(controller);
    const declaration = metadata?.[kController] as ControllerDeclaration | undefined;
    if (metadata === undefined || declaration === undefined) {
      throw new KilnError('KILN001', `${describe(controller)} is listed in controllers but is not decorated with @Controller(basePath)`);
    }
    const controllerChain = declaration.middlewares.map((m, i) => resolver.resolve(m, `@Controller of ${controller.name}, middleware ${i}`));
    const instance = new (controller as new () => object)();
    const methods: MethodDeclarations = (metadata[kMethods] as MethodDeclarations | undefined) ?? new Map();

    for (const [methodName, method] of methods) {
      const name = `${controller.name}.${String(methodName)}`;
      if (method.routes.length === 0) continue;
      const handler = (instance as Record<string | symbol, unknown>)[methodName];
      if (typeof handler !== 'function') throw new KilnError('KILN008', `${name} is decorated as a route but is not a method`);
      for (const spec of method.routes) {
        const path = joinRoutePath(declaration.basePath, spec.path);
        routeParamNames(path);
        const where = `${spec.method} ${path} (${name})`;
        if (method.binder === undefined && handler.length > 0) {
          throw new KilnError('KILN003', `Route ${where} declares ${handler.length} parameter(s) but has no compiled binder: ${pluginHint}`);
        }
        const key = `${spec.method} ${routeShape(path)}`;
        const previous = seen.get(key);
        if (previous !== undefined) throw new KilnError('KILN002', `Route ${spec.method} ${path} is declared twice: by ${previous} and by ${name}`);
        seen.set(key, name);
        const routeChain = spec.middlewares.map((m, i) => resolver.resolve(m, `route ${where}, middleware ${i}`));
        routes.push(
          Object.freeze({
            method: spec.method,
            path,
            name,
            controller,
            handlerName: String(methodName),
            instance,
            handler: handler as CompiledRoute['handler'],
            binder: method.binder,
            serializer: method.serializer,
            status: method.status,
            strict: options.strict,
            middlewares: Object.freeze([...appChain, ...controllerChain, ...routeChain]),
            report: options.report,
          }),
        );
      }
    }
  }
  return routes;
}

export function routeInfo(route: CompiledRoute): RouteInfo {
  return Object.freeze({ method: route.method, path: route.path, controller: route.controller, handler: route.handlerName });
}
