import type { KilnRequest } from './request/kiln-request.js';
import { methodDeclaration } from './decorators/method-declaration.js';

/**
 * A compiled binder turns a request into the argument list of one handler (or middleware `use`).
 * `@kiln/core/transformer` writes one per method at build time; `strict` is the server's
 * `strictValidation`. It may throw an `HttpError` (a 400 for a failed conversion), which the
 * runtime turns into the response.
 */
export type Binder = (req: KilnRequest, strict: boolean) => unknown[] | Promise<unknown[]>;

/**
 * The method decorator through which compiled binders reach the runtime. `@kiln/core/transformer` adds
 * it to every route and middleware `use` at emit time; hand-written code may use it directly.
 *
 * @example
 * ```ts
 * @Get('/:id') @compiledBinder((req) => [Number(req.params.id)]) get(id: number) {}
 * ```
 */
export function compiledBinder(binder: Binder) {
  return function (_method: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).binder = binder;
  };
}

/**
 * The compiled binder of a method without parameters: the transformer marks every route and
 * middleware `use` it compiled, even one with nothing to bind, so the runtime can refuse a method
 * the transformer never saw (KILN003) without guessing from `Function.length`. The route table
 * recognises it and calls the method without arguments.
 *
 * @example
 * ```ts
 * @Get('/health') @compiledBinder(noParameters) health() { return 'ok'; }
 * ```
 */
export const noParameters: Binder = () => [];
