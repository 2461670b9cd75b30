// WebSockets on Bun: `Bun.serve`'s `websocket` handlers, one set for the whole server, each socket
// carrying its Kiln session as `ws.data`. Bun checks the message size itself (`maxPayloadLength`,
// closing with 1009); Kiln sends the pings (Bun's own are turned off).
import type { SocketSession } from '../../websocket/socket-session.js';
import type { UpgradeHandler } from '../../websocket/upgrade-decision.js';
import type { WebSocketLimits } from '../../websocket/websocket-options.js';
import type { SocketAddressOf } from '../listener.js';

/** The members of Bun's `ServerWebSocket` that Kiln uses. */
export interface BunSocket {
  readonly data: SocketSession;
  send(data: string): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): number;
  getBufferedAmount?(): number;
}

/** What `Bun.serve` takes as `websocket`. */
export interface BunSocketHandlers {
  open(ws: BunSocket): void;
  message(ws: BunSocket, message: string | Uint8Array): void;
  close(ws: BunSocket, code: number, reason: string): void;
  pong(ws: BunSocket): void;
  maxPayloadLength: number;
  idleTimeout: number;
  sendPings: boolean;
  perMessageDeflate: boolean;
}

/** The server `Bun.serve` returns, as far as an upgrade needs it. */
export interface BunUpgradingServer {
  upgrade(request: Request, options: { data: SocketSession; headers: Headers }): boolean;
}

/** Bytes of a UTF-8 text message, counted only when its length could pass the limit. */
function byteLength(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : Buffer.byteLength(text);
}

export function bunSocketHandlers(limits: WebSocketLimits): BunSocketHandlers {
  return {
    open(ws) {
      ws.data.opened({
        send: (text) => void ws.send(text),
        close: (code, reason) => ws.close(code, reason),
        terminate: () => ws.terminate(),
        get bufferedAmount() {
          return ws.getBufferedAmount?.() ?? 0;
        },
        ping: () => void ws.ping(),
      });
    },
    message(ws, message) {
      if (typeof message === 'string') ws.data.receivedText(message, byteLength(message, limits.maxMessageSize));
      else ws.data.receivedBinary(message.byteLength);
    },
    close(ws, code, reason) {
      ws.data.closed(code, reason);
    },
    pong(ws) {
      ws.data.ponged();
    },
    maxPayloadLength: limits.maxMessageSize,
    // Kiln's pings (pingInterval) keep connections alive and find dead peers; Bun's own idle timer is off.
    idleTimeout: 0,
    sendPings: false,
    perMessageDeflate: false,
  };
}

/**
 * A request that asks for a WebSocket: decided by the application, then either answered or
 * upgraded by Bun (the fetch handler then answers nothing).
 */
export async function bunUpgrade(
  request: Request,
  server: BunUpgradingServer,
  upgrade: UpgradeHandler,
  addressOf: SocketAddressOf,
): Promise<Response | undefined> {
  const decision = await upgrade(request, addressOf);
  if ('response' in decision) return decision.response;
  if (server.upgrade(request, { data: decision.session, headers: decision.headers })) return undefined;
  decision.session.closed(1006, '');
  return new Response(null, { status: 400 });
}
