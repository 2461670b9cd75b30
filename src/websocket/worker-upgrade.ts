// WebSockets on workerd (Cloudflare Workers): the runtime listens and calls the worker's fetch,
// which answers an accepted upgrade with a 101 carrying one end of a `WebSocketPair` and serves the
// other. workerd answers pings itself and reports no buffered amount: keep-alive and the
// slow-reader limit are the runtime's (docs/guide/streaming.md).
import { closeCodes } from './close-codes.js';
import type { SocketSession } from './socket-session.js';
import type { UpgradeDecision } from './upgrade-decision.js';

/** The members of workerd's server-side WebSocket that Kiln uses. */
interface WorkerSocket {
  accept(): void;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { data: string | ArrayBuffer }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

type WebSocketPairConstructor = new () => { 0: WorkerSocket; 1: WorkerSocket };

const encoder = new TextEncoder();

/** UTF-8 bytes of a text message, counted only when its length could pass the limit. */
function byteLength(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : encoder.encode(text).byteLength;
}

function serve(session: SocketSession, socket: WorkerSocket): void {
  const limit = session.host.limits.maxMessageSize;
  socket.accept();
  socket.addEventListener('message', (event) => {
    if (typeof event.data === 'string') session.receivedText(event.data, byteLength(event.data, limit));
    else session.receivedBinary(event.data.byteLength);
  });
  socket.addEventListener('close', (event) => {
    session.closed(event.code, event.reason);
  });
  socket.addEventListener('error', () => session.closed(closeCodes.abnormal, ''));
  session.opened({
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
    // workerd cannot cut a connection without a close frame: the nearest is going away.
    terminate: () => socket.close(closeCodes.goingAway, ''),
    bufferedAmount: 0,
  });
}

function answer(decision: UpgradeDecision): Response {
  if ('response' in decision) return decision.response;
  const Pair = (globalThis as unknown as { WebSocketPair: WebSocketPairConstructor }).WebSocketPair;
  const pair = new Pair();
  serve(decision.session, pair[1]);
  return new Response(null, { status: 101, headers: decision.headers, webSocket: pair[0] } as ResponseInit);
}

/** The worker's answer to a request that asks for a WebSocket. */
export function workerUpgrade(decision: UpgradeDecision | Promise<UpgradeDecision>): Response | Promise<Response> {
  return decision instanceof Promise ? decision.then(answer) : answer(decision);
}
