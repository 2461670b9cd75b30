import type { MiddlewareLike } from '../middleware.js';
import type { KilnDecorator } from '../decorators/kiln-decorator.js';
import { methodDeclaration } from '../decorators/method-declaration.js';
import { kilnError } from '../kiln-error.js';

/** What `@WebSocket('/chat')` returns: a GET route whose brand says it upgrades to a WebSocket. */
export type WebSocketDecorator<Path extends string> = KilnDecorator<
  { readonly kind: 'route'; readonly method: 'GET'; readonly path: Path; readonly socket: true },
  ClassMethodDecoratorContext
>;

/**
 * Declares a WebSocket route: a GET route whose request upgrades to a WebSocket once the
 * application's, the controller's and these middlewares let it through (a guard's 401 or 403 is
 * an ordinary HTTP answer, and no connection opens). The handler binds `@Param`, `@Query`,
 * `@Header`, … like any route and returns the connection's {@link SocketHandlers}, whose declared
 * `In` and `Out` types the build turns into a validator and a projection.
 *
 * @example
 * ```ts
 * @WebSocket('/rooms/:room', auth)
 * join(@Param('room') room: string): SocketHandlers<ChatIn, ChatOut> {
 *   return {
 *     open: (socket) => socket.subscribe(room),
 *     message: (socket, message) => socket.publish(room, { room, text: message.text }),
 *   };
 * }
 * ```
 */
export function WebSocket<const Path extends string>(path: Path, ...middlewares: MiddlewareLike[]): WebSocketDecorator<Path> {
  if (typeof path !== 'string') throw kilnError('KILN008', 'routePath', 'WebSocket', typeof path);
  return function (_handler: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).routes.push({ method: 'GET', path, middlewares, socket: true });
  } as WebSocketDecorator<Path>;
}
