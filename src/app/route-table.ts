import type { Binder, RouteBinder } from '../decorators/binder.js';
import type { Container } from '../injection/container.js';
import type { Serializer } from '../response/serializer.js';
import type { ControllerDeclaration } from '../decorators/controller.js';
import type { MethodDeclarations } from '../decorators/method-declaration.js';
import { noParameters } from '../binding/no-parameters.js';
import { kilnError } from '../kiln-error.js';
import type { MiddlewareFunction, MiddlewareLike } from '../middleware.js';
import type { ControllerClass, RouteInfo } from '../router/route-info.js';
import { joinRoutePath, routeParamNames, routeShape } from '../router/route-path.js';
import { kController, kMethods } from '../symbols.js';
import { describe, metadataOf } from './declarations.js';
import { MiddlewareResolver } from './middleware-resolver.js';
import { HandlerTimeout } from '../decorators/handler-timeout.js';
import type { EventStreamSettings } from '../sse/sse-options.js';
import type { SocketCodec } from '../websocket/socket-codec.js';
import type { OriginPolicy } from '../websocket/allowed-origins.js';
import { originCheck } from '../websocket/origin-check.js';
import type { ProxyTrust } from '../request/client-address.js';

/** One route, resolved at start-up: everything a request needs, nothing left to look up. */
export interface CompiledRoute {
  /** The row of `app.routes`, and `req.route` of the requests this route answers. */
  readonly info: RouteInfo;
  /** `Controller.method`, for messages and logs. */
  readonly name: string;
  readonly instance: object;
  readonly handler: (...args: unknown[]) => unknown;
  /** The compiled binder, with the handler's injected values (resolved once) bound in. */
  readonly binder: RouteBinder | undefined;
  /** The typed-response serialiser of the handler's value; undefined sends it with JSON.stringify. */
  readonly serializer: Serializer | undefined;
  readonly status: number | undefined;
  /** `@Sse()`: the handler's async iterable is answered as `text/event-stream`. */
  readonly eventStream?: EventStreamSettings;
  readonly strict: boolean;
  /** Milliseconds the handler has to answer (`handlerTimeout`, `@HandlerTimeout`); 0 = no limit. */
  readonly timeout: number;
  /** Application, then controller, then route middlewares. */
  readonly middlewares: readonly MiddlewareFunction[];
  /** A `@WebSocket` route: its message codec (empty when the build wrote none); undefined for HTTP routes. */
  readonly socket?: SocketCodec;
}

/** The application as `createServer` assembles it: every route, and the chain every request passes. */
export interface RouteTable {
  readonly routes: readonly CompiledRoute[];
  /** The application middlewares, resolved: what a request no route took runs through. */
  readonly appChain: readonly MiddlewareFunction[];
}

/** What the origin check of a `@WebSocket` route decides with, unless the route names its own origins. */
export interface SocketRouteSettings {
  readonly origins: OriginPolicy;
  readonly trust: ProxyTrust;
}

/** A `@WebSocket` route whose types the build did not read: messages pass as parsed, and leave as JSON.stringify writes them. */
const noCodec: SocketCodec = Object.freeze({ validate: undefined, serialize: undefined });

/** The binder a route calls per request: the compiled one, given the handler's injected values. */
function routeBinder(binder: Binder | undefined, injected: readonly unknown[] | undefined): RouteBinder | undefined {
  if (binder === undefined || injected === undefined) return binder as RouteBinder | undefined;
  return (req, strict) => binder(req, strict, injected);
}

/**
 * Reads the decorators' metadata of every controller into compiled routes. Everything that can
 * be wrong with a declaration is found here, at start-up, with a message that says what to change.
 */
export function buildRouteTable(
  controllers: readonly ControllerClass[],
  appMiddlewares: readonly MiddlewareLike[],
  strict: boolean,
  container: Container,
  handlerTimeout: number,
  sockets: SocketRouteSettings,
): RouteTable {
  const resolver = new MiddlewareResolver(strict, container);
  const appChain = Object.freeze(appMiddlewares.map((m, i) => resolver.resolve(m, `middlewares[${i}]`)));
  const routes: CompiledRoute[] = [];
  const seen = new Map<string, string>();

  for (const controller of controllers) {
    if (typeof controller !== 'function') throw kilnError('KILN007', 'controllerNotAClass', typeof controller);
    const metadata = metadataOf(controller);
    const declaration = metadata?.[kController] as ControllerDeclaration | undefined;
    if (metadata === undefined || declaration === undefined) {
      throw kilnError('KILN001', 'notAController', describe(controller));
    }
    const controllerChain = declaration.middlewares.map((m, i) =>
      resolver.resolve(m, `@Controller of ${controller.name}, middleware ${i}`),
    );
    const instance = container.instanceOf(controller);
    const methods: MethodDeclarations = (metadata[kMethods] as MethodDeclarations | undefined) ?? new Map();

    for (const [methodName, method] of methods) {
      const name = `${controller.name}.${String(methodName)}`;
      if (method.routes.length === 0) continue;
      const handler = (instance as Record<string | symbol, unknown>)[methodName];
      if (typeof handler !== 'function') throw kilnError('KILN008', 'routeNotAMethod', name);
      for (const spec of method.routes) {
        const path = joinRoutePath(declaration.basePath, spec.path);
        routeParamNames(path);
        const where = `${spec.method} ${path} (${name})`;
        // Every compiled route carries a binder (noParameters when it binds nothing): no guessing from handler.length,
        // which is 0 for a handler whose parameters all have defaults.
        if (method.binder === undefined) throw kilnError('KILN003', 'routeNotCompiled', where);
        const key = `${spec.method} ${routeShape(path)}`;
        const previous = seen.get(key);
        if (previous !== undefined) throw kilnError('KILN002', 'routeDeclaredTwice', spec.method, path, previous, name);
        seen.set(key, name);
        const routeChain = spec.middlewares.map((m, i) => resolver.resolve(m, `route ${where}, middleware ${i}`));
        // A WebSocket route checks the handshake's Origin before any middleware sees it (websocket/origin-check.ts).
        const originChain = spec.socket === true ? [originCheck(spec.origins ?? sockets.origins, sockets.trust)] : [];
        const info: RouteInfo = Object.freeze({ method: spec.method, path, controller, handler: String(methodName) });
        routes.push(
          Object.freeze({
            info,
            name,
            instance,
            handler: handler as CompiledRoute['handler'],
            binder:
              method.binder === noParameters
                ? undefined
                : routeBinder(method.binder, container.handlerValues(controller, String(methodName))),
            serializer: method.serializer,
            status: method.status,
            eventStream: method.eventStream,
            strict,
            timeout: HandlerTimeout.get(info) ?? handlerTimeout,
            middlewares: Object.freeze([...originChain, ...appChain, ...controllerChain, ...routeChain]),
            socket: spec.socket === true ? (method.socket ?? noCodec) : undefined,
          }),
        );
      }
    }
  }
  return { routes, appChain };
}
