import { kController } from '../symbols.js';
import type { MiddlewareLike } from '../middleware.js';
import type { KilnDecorator } from './kiln-decorator.js';
import { kilnError } from '../kiln-error.js';

export interface ControllerDeclaration {
  basePath: string;
  middlewares: MiddlewareLike[];
}

/**
 * Marks a class as a controller. `basePath` prefixes every route of the class; middlewares run
 * for all of its routes, after the application's and before the route's own.
 *
 * @example
 * ```ts
 * @Controller('/users', requireUser)
 * export class UsersController { @Get('/:id') get(@Param('id') id: number) { ... } }
 * ```
 */
export function Controller<const BasePath extends string>(
  basePath: BasePath,
  ...middlewares: MiddlewareLike[]
): KilnDecorator<{ readonly kind: 'controller'; readonly basePath: BasePath }, ClassDecoratorContext> {
  if (typeof basePath !== 'string') {
    throw kilnError('KILN008', 'controllerPath', typeof basePath);
  }
  return function (_class: Function, context: ClassDecoratorContext): void {
    const declaration: ControllerDeclaration = { basePath, middlewares };
    context.metadata[kController] = declaration;
  } as KilnDecorator<{ readonly kind: 'controller'; readonly basePath: BasePath }, ClassDecoratorContext>;
}
