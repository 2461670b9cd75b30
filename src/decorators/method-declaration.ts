import { kMethods } from '../symbols.js';
import type { Binder } from './binder.js';
import type { Serializer } from '../response/serializer.js';
import type { MiddlewareLike } from '../middleware.js';
import { kilnError } from '../kiln-error.js';
import type { EventStreamSettings } from '../sse/sse-options.js';
import type { SocketCodec } from '../websocket/socket-codec.js';
import type { OriginPolicy } from '../websocket/allowed-origins.js';

export interface RouteSpec {
  method: string;
  path: string;
  middlewares: MiddlewareLike[];
  /** `@WebSocket`: the request upgrades to a WebSocket (src/websocket/). */
  socket?: true;
  /** `@WebSocket(path, { allowedOrigins })`: the route's own origin check, in place of the server's. */
  origins?: OriginPolicy;
}

/** What the decorators of one method declared. Plain data read by the route table. */
export interface MethodDeclaration {
  routes: RouteSpec[];
  status?: number;
  binder?: Binder;
  /** The typed-response serialiser (see response/serializer.ts). */
  serializer?: Serializer;
  /** `@Sse()`: the handler's values are server-sent events. */
  eventStream?: EventStreamSettings;
  /** A `@WebSocket` route's compiled message codec (see websocket/socket-codec.ts). */
  socket?: SocketCodec;
}

export type MethodDeclarations = Map<string | symbol, MethodDeclaration>;

/** The declarations of a class's own methods, created on first use (inherited ones are copied). */
export function methodDeclarations(metadata: DecoratorMetadataObject): MethodDeclarations {
  if (Object.hasOwn(metadata, kMethods)) return metadata[kMethods] as MethodDeclarations;
  const inherited = metadata[kMethods] as MethodDeclarations | undefined;
  const own: MethodDeclarations = new Map(inherited);
  metadata[kMethods] = own;
  return own;
}

export function methodDeclaration(context: ClassMethodDecoratorContext): MethodDeclaration {
  if (context.static) {
    throw kilnError('KILN008', 'staticMethod', String(context.name));
  }
  const declarations = methodDeclarations(context.metadata);
  let declaration = declarations.get(context.name);
  if (declaration === undefined) {
    declaration = { routes: [] };
    declarations.set(context.name, declaration);
  }
  return declaration;
}
