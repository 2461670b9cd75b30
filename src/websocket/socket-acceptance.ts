// How a `@WebSocket` route answers inside the request pipeline. The route's middlewares and binder
// run as for any route; its handler's value (the connection's handlers) is recorded on the request
// instead of being sent, and the transport that brought the request upgrades it once the chain has
// answered (upgrade-decision.ts). A request no transport can upgrade (a plain GET, `app.fetch` on
// Node) answers 426.
import type { CompiledRoute } from '../app/route-table.js';
import { HttpError } from '../http-error.js';
import { isPromiseLike } from '../is-promise-like.js';
import { kilnError } from '../kiln-error.js';
import type { RequestCore } from '../request/kiln-request.js';
import { kSerializer, kStatus } from '../symbols.js';
import type { SocketHandlers } from './socket.js';
import type { SocketCodec } from './socket-codec.js';
import { isUpgrading } from './upgradable-requests.js';

/** A socket route's handlers, accepted by the chain, waiting for the transport to upgrade. */
export interface Acceptance {
  readonly handlers: SocketHandlers<unknown, unknown>;
  readonly codec: SocketCodec | undefined;
  /** `Controller.method`. */
  readonly route: string;
}

const accepted = new WeakMap<RequestCore, Acceptance>();

/** The handlers the route accepted `req` with, if it did. */
export function acceptanceOf(req: RequestCore): Acceptance | undefined {
  return accepted.get(req);
}

function record(req: RequestCore, route: CompiledRoute, handlers: unknown): undefined {
  if (handlers === null || typeof handlers !== 'object') throw kilnError('KILN093', 'notHandlers', route.name, typeof handlers);
  accepted.set(req, { handlers: handlers as SocketHandlers<unknown, unknown>, codec: route.socket, route: route.name });
  // The chain's answer: an empty 204, which the transport replaces with its 101.
  req[kStatus] = 204;
  req[kSerializer] = undefined;
  return undefined;
}

/** A socket route's handler step: `call` runs the binder and the handler. */
export function acceptSocket(route: CompiledRoute, req: RequestCore, call: () => unknown): unknown {
  // (RFC 9110 asks a 426 for an Upgrade header, which Kiln's answers never carry: a hop-by-hop
  // header the runtime's server owns. The message names the protocol instead.)
  if (!isUpgrading(req)) {
    throw new HttpError(426, `${req.path} is a WebSocket route: connect with Upgrade: websocket`);
  }
  const handlers = call();
  if (isPromiseLike(handlers)) return Promise.resolve(handlers).then((value) => record(req, route, value));
  return record(req, route, handlers);
}
