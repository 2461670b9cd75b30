import type { Binder } from './binder.js';
import type { KilnDecorator } from './kiln-decorator.js';
import { methodDeclaration } from './method-declaration.js';

/**
 * The method decorator through which compiled binders reach the runtime. `@kiln/core/transformer` adds
 * it to every route and middleware `use` at emit time; hand-written code may use it directly.
 *
 * @example
 * ```ts
 * @Get('/:id') @compiledBinder((req) => [Number(req.params.id)]) get(id: number) {}
 * ```
 */
export function compiledBinder(binder: Binder): KilnDecorator<{ readonly kind: 'binder' }, ClassMethodDecoratorContext> {
  return function (_method: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).binder = binder;
  } as KilnDecorator<{ readonly kind: 'binder' }, ClassMethodDecoratorContext>;
}
