import type { BodyValidator } from '../binding/validate-body.js';
import type { Serializer } from '../response/serializer.js';
import { methodDeclaration } from '../decorators/method-declaration.js';

/**
 * How a `@WebSocket` route reads and writes messages, written at build time from its declared
 * `SocketHandlers<In, Out>`: typia's validator of `In`, and the serialiser that projects a value
 * to `Out`. Either is absent where the type says nothing (`unknown`) or typia is not configured.
 */
export interface SocketCodec {
  readonly validate: BodyValidator | undefined;
  readonly serialize: Serializer | undefined;
}

/**
 * The method decorator through which a socket route's compiled codec reaches the runtime.
 * `@kiln/core/transformer` adds it to every `@WebSocket` route whose handlers declare message
 * types; hand-written code may use it too.
 *
 * @example
 * ```ts
 * @WebSocket('/echo') @compiledSocket({ validate: undefined, serialize: (value) => JSON.stringify(value) }) echo() { ... }
 * ```
 */
export function compiledSocket(codec: SocketCodec) {
  return function (_method: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).socket = Object.freeze({ validate: codec.validate, serialize: codec.serialize });
  };
}
