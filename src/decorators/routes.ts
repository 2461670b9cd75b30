import type { MiddlewareLike } from '../middleware.js';
import type { KilnDecorator } from './kiln-decorator.js';
import { methodDeclaration } from './method-declaration.js';
import { kilnError } from '../kiln-error.js';

/** What `@Get('/:id')` returns: its brand carries the method and the path as literal types. */
export type RouteDecorator<Method extends string, Path extends string> = KilnDecorator<
  { readonly kind: 'route'; readonly method: Method; readonly path: Path },
  ClassMethodDecoratorContext
>;

function routeDecorator<const Method extends string>(method: Method) {
  return function <const Path extends string>(path: Path, ...middlewares: MiddlewareLike[]): RouteDecorator<Method, Path> {
    if (typeof path !== 'string') {
      throw kilnError('KILN008', 'routePath', `${method[0]}${method.slice(1).toLowerCase()}`, typeof path);
    }
    return function (_handler: Function, context: ClassMethodDecoratorContext): void {
      methodDeclaration(context).routes.push({ method, path, middlewares });
    } as RouteDecorator<Method, Path>;
  };
}

/**
 * Route decorators. `path` is joined to the controller's base path (`'/'` is the base path
 * itself; `/:name` declares a route parameter); middlewares run for this route only, after the
 * application's and the controller's.
 *
 * @example
 * ```ts
 * @Get('/:id', auth) get(@Param('id') id: number) { return { id }; }
 * ```
 */
export const Get = routeDecorator('GET');
export const Post = routeDecorator('POST');
export const Put = routeDecorator('PUT');
export const Delete = routeDecorator('DELETE');
export const Patch = routeDecorator('PATCH');
