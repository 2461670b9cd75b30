import { methodDeclaration } from '../decorators/method-declaration.js';

/**
 * A typed-response serialiser: the JSON text of a handler's return value, written for its return
 * type. `@kiln/core/transformer` generates one per route with typia (docs: guide/typed-responses.md); it
 * writes only the properties the type declares, so a field the type does not name is never sent.
 */
export type Serializer = (value: unknown) => string;

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

/**
 * The serialiser `@kiln/core/transformer` writes for a handler that returns a list: `copy` (typia's
 * clone for the list's type, generated at build time) keeps only the declared properties, then V8's
 * native `JSON.stringify` writes the copy. Measured on 100 typed users, ~1.1-1.4x faster than typia's
 * string-building serialiser and within ~10% of `JSON.stringify` of the value itself.
 */
export function copyThenStringify<T>(copy: (value: T) => unknown): Serializer {
  return (value) => JSON.stringify(copy(value as T));
}
