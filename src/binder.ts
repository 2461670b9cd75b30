import type { KilnRequest } from './request/kiln-request.js';
import { methodDeclaration } from './decorators/method-declaration.js';

/**
 * A compiled binder turns a request into the argument list of one handler (or middleware `use`).
 * `@kiln/core/transformer` writes one per method at build time; `strict` is the server's
 * `strictValidation`. It may throw an `HttpError` (a 400 for a failed conversion), which the
 * runtime turns into the response. `injected` holds the handler's `@Inject()` values, resolved once
 * when the application is created.
 */
export type Binder = (req: KilnRequest, strict: boolean, injected: readonly unknown[]) => unknown[] | Promise<unknown[]>;

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
