import type { BodyValidator } from '../binding/validate-body.js';
import type { Serializer } from '../response/serializer.js';

/**
 * How a `@WebSocket` route reads and writes messages, written at build time from its declared
 * `SocketHandlers<In, Out>`: typia's validator of `In`, and the serialiser that projects a value
 * to `Out`. Either is absent where the type says nothing (`unknown`) or typia is not configured.
 */
export interface SocketCodec {
  readonly validate: BodyValidator | undefined;
  readonly serialize: Serializer | undefined;
}
