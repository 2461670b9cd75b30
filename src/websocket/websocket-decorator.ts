import type { MiddlewareLike } from '../middleware.js';
import type { KilnDecorator } from '../decorators/kiln-decorator.js';
import { methodDeclaration } from '../decorators/method-declaration.js';
import { kilnError } from '../kiln-error.js';
import { originPolicy, type AllowedOrigins, type OriginPolicy } from './allowed-origins.js';

/** What `@WebSocket('/chat')` returns: a GET route whose brand says it upgrades to a WebSocket. */
export type WebSocketDecorator<Path extends string> = KilnDecorator<
  { readonly kind: 'route'; readonly method: 'GET'; readonly path: Path; readonly socket: true },
  ClassMethodDecoratorContext
>;

/** The options of one `@WebSocket` route (before its middlewares). */
export interface WebSocketRouteOptions {
  /**
   * Browser origins allowed to open this route's sockets besides the server's own, in place of
   * `createServer({ webSocket: { allowedOrigins } })` (docs: guide/streaming.md, "Origin check").
   */
  allowedOrigins?: AllowedOrigins;
}

/** The route's own origin policy, when its first argument after the path is an options object (KILN097 for a bad one). */
function routeOrigins(path: string, options: object): OriginPolicy | undefined {
  const route = `@WebSocket('${path}')`;
  for (const key of Object.keys(options)) if (key !== 'allowedOrigins') throw kilnError('KILN097', 'unknownRouteOption', route, key);
  const { allowedOrigins } = options as WebSocketRouteOptions;
  return allowedOrigins === undefined ? undefined : originPolicy(allowedOrigins, `allowedOrigins of ${route}`);
}

/**
 * Declares a WebSocket route: a GET route whose request upgrades to a WebSocket once the
 * application's, the controller's and these middlewares let it through (a guard's 401 or 403 is
 * an ordinary HTTP answer, and no connection opens). The handler binds `@Param`, `@Query`,
 * `@Header`, … like any route and returns the connection's {@link SocketHandlers}, whose declared
 * `In` and `Out` types the build turns into a validator and a projection. A handshake from a
 * browser page of another origin is refused (403) unless `allowedOrigins` (the route's, else the
 * server's `webSocket.allowedOrigins`) names it.
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
 *
 * @WebSocket('/feed', { allowedOrigins: ['https://app.example.com'] })
 * feed(): SocketHandlers<unknown, FeedItem> { ... }
 * ```
 */
export function WebSocket<const Path extends string>(path: Path, ...middlewares: MiddlewareLike[]): WebSocketDecorator<Path>;
export function WebSocket<const Path extends string>(
  path: Path,
  options: WebSocketRouteOptions,
  ...middlewares: MiddlewareLike[]
): WebSocketDecorator<Path>;
export function WebSocket<const Path extends string>(
  path: Path,
  ...rest: (WebSocketRouteOptions | MiddlewareLike)[]
): WebSocketDecorator<Path> {
  if (typeof path !== 'string') throw kilnError('KILN008', 'routePath', 'WebSocket', typeof path);
  // Middlewares are functions (and classes): an object first is the route's options.
  const first = rest[0];
  const hasOptions = first !== undefined && typeof first !== 'function';
  if (hasOptions && (first === null || typeof first !== 'object' || Array.isArray(first))) {
    throw kilnError(
      'KILN097',
      'routeOptions',
      `@WebSocket('${path}')`,
      first === null ? 'null' : Array.isArray(first) ? 'a list' : typeof first,
    );
  }
  const origins = hasOptions ? routeOrigins(path, first as object) : undefined;
  const middlewares = (hasOptions ? rest.slice(1) : rest) as MiddlewareLike[];
  return function (_handler: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).routes.push({ method: 'GET', path, middlewares, socket: true, origins });
  } as WebSocketDecorator<Path>;
}
