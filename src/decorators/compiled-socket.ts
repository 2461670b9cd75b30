import type { SocketCodec } from '../websocket/socket-codec.js';
import { methodDeclaration } from './method-declaration.js';

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
