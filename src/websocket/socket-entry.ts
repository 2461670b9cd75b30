// The WebSocket side of `createServer`: the application's open sockets, the upgrade handler the
// runtimes' listeners call, and, on workerd (where the runtime listens and calls app.fetch), the
// upgrade made by the fetch entry itself.
import type { Serve } from '../adapter/fetch-entry.js';
import type { Application } from '../app/application.js';
import type { ResolvedConfig } from '../resolved-config.js';
import { asksForWebSocket } from './handshake.js';
import { OpenSockets } from './open-sockets.js';
import { decideUpgrade, type UpgradeHandler } from './upgrade-decision.js';
import { workerUpgrade } from './worker-upgrade.js';
import { webSocketHub, type WebSocketOptions } from './websocket-options.js';

export interface SocketEntry {
  readonly open: OpenSockets;
  /** What Node's, Bun's and Deno's listeners call with a request that asks for a WebSocket. */
  readonly upgrade: UpgradeHandler;
  /** The fetch entry, upgrading on workerd (`WebSocketPair`) the requests that ask for a WebSocket. */
  serving(serve: Serve): Serve;
}

/** workerd's pair of connected WebSockets, where the runtime has it. */
function hasWebSocketPair(): boolean {
  return typeof (globalThis as { WebSocketPair?: unknown }).WebSocketPair === 'function';
}

export function socketEntry(app: Application, resolved: ResolvedConfig, options: WebSocketOptions | undefined): SocketEntry {
  const open = new OpenSockets(resolved.webSocket, webSocketHub(options), resolved.logger);
  const { request } = resolved;
  const upgrade: UpgradeHandler = (incoming, socketAddress, context) => {
    if (!app.started) return app.ready.then(() => upgrade(incoming, socketAddress, context));
    return decideUpgrade(incoming, request, app.handle, open, socketAddress, context);
  };
  return {
    open,
    upgrade,
    serving(serve) {
      if (!hasWebSocketPair()) return serve;
      const entry: Serve = (incoming, socketAddress, context) => {
        if (!app.started) return app.ready.then(() => entry(incoming, socketAddress, context));
        return app.hasSocketRoutes && asksForWebSocket(incoming.headers)
          ? workerUpgrade(upgrade(incoming, socketAddress, context))
          : serve(incoming, socketAddress, context);
      };
      return entry;
    },
  };
}
