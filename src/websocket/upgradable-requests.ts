// Which requests a transport can upgrade to a WebSocket: the transport marks them before the chain
// runs, and the route's origin check and socket step read the mark. Kept off the request object:
// only upgrades pay for it.
import type { KilnRequest, RequestCore } from '../request/kiln-request.js';

const upgradable = new WeakSet<RequestCore>();

/** The transport will upgrade `req` if its route accepts it. */
export function allowUpgrade(req: RequestCore): void {
  upgradable.add(req);
}

/** Whether a transport will upgrade `req` (it asked for a WebSocket the transport can open). */
export function isUpgrading(req: KilnRequest): boolean {
  return upgradable.has(req as RequestCore);
}
