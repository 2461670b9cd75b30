import type { Serializer } from '../response/serializer.js';
import { methodDeclaration } from './method-declaration.js';

/**
 * The method decorator through which compiled serialisers reach the runtime. `@kiln/core/transformer`
 * adds it to every route whose return type is serialised from its type; hand-written code may use
 * it directly.
 *
 * @example
 * ```ts
 * @Get('/me') @compiledSerializer((user) => JSON.stringify({ id: (user as User).id })) me(): User { ... }
 * ```
 */
export function compiledSerializer(serializer: Serializer) {
  return function (_method: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).serializer = serializer;
  };
}
