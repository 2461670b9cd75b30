// WebSockets on Deno: `Deno.upgradeWebSocket` once the application accepted the upgrade. Deno keeps
// connections alive itself (its `idleTimeout` pings and closes a peer that does not answer, in whole
// seconds: pingInterval rounded up), and has no message size option: the size is checked when a
// message has arrived.
import { closeCodes } from '../../websocket/close-codes.js';
import type { SocketSession } from '../../websocket/socket-session.js';
import type { UpgradeHandler } from '../../websocket/upgrade-decision.js';
import type { WebSocketLimits } from '../../websocket/websocket-options.js';
import type { SocketAddressOf } from '../listener.js';

/** The members of Deno's server-side WebSocket that Kiln uses. */
interface DenoSocket {
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: string | ArrayBuffer }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: (() => void) | null;
}

export type DenoUpgradeWebSocket = (request: Request, options: { idleTimeout: number }) => { socket: DenoSocket; response: Response };

const encoder = new TextEncoder();

/** UTF-8 bytes of a text message, counted only when its length could pass the limit. */
function byteLength(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : encoder.encode(text).byteLength;
}

function attach(session: SocketSession, socket: DenoSocket, limits: WebSocketLimits): void {
  socket.binaryType = 'arraybuffer';
  socket.onopen = () =>
    session.opened({
      send: (text) => socket.send(text),
      close: (code, reason) => socket.close(code, reason),
      // Deno has no way to cut without a close frame: the nearest is going away.
      terminate: () => socket.close(closeCodes.goingAway, ''),
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
    });
  socket.onmessage = (event) => {
    if (typeof event.data === 'string') session.receivedText(event.data, byteLength(event.data, limits.maxMessageSize));
    else session.receivedBinary(event.data.byteLength);
  };
  socket.onclose = (event) => session.closed(event.code, event.reason);
  socket.onerror = () => {
    // the close event follows
  };
}

/** A request that asks for a WebSocket: decided by the application, then answered or upgraded by Deno. */
export async function denoUpgrade(
  request: Request,
  upgrade: UpgradeHandler,
  upgradeWebSocket: DenoUpgradeWebSocket,
  limits: WebSocketLimits,
  addressOf: SocketAddressOf,
  info: unknown,
): Promise<Response> {
  const decision = await upgrade(request, addressOf, info);
  if ('response' in decision) return decision.response;
  let upgraded: ReturnType<DenoUpgradeWebSocket>;
  try {
    upgraded = upgradeWebSocket(request, { idleTimeout: Math.ceil(limits.pingInterval / 1000) });
  } catch {
    decision.session.closed(closeCodes.abnormal, '');
    return new Response(null, { status: 400 });
  }
  attach(decision.session, upgraded.socket, limits);
  decision.headers.forEach((value, name) => {
    upgraded.response.headers.append(name, value);
  });
  return upgraded.response;
}
