// WebSockets on Node: the upgrade request decided by the application (upgrade-decision.ts), then
// the connection handed to the `ws` package (an optional peer dependency, loaded when the server
// starts listening with `@WebSocket` routes). An answer other than 101 (a guard's 401, a 404, a
// malformed handshake's 400) is written on the socket, which then closes: Node's parser has
// stopped reading it as HTTP.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { kilnError } from '../../kiln-error.js';
import type { ErrorFormat } from '../../response/error-format.js';
import { reasonPhrase } from '../../response/reason-phrase.js';
import { asksForWebSocket } from '../../websocket/handshake.js';
import type { SocketSession } from '../../websocket/socket-session.js';
import type { UpgradeDecision, UpgradeHandler } from '../../websocket/upgrade-decision.js';
import { refuseUpgrade } from './protocol-refusals.js';
import { headProblem } from './request-head.js';
import { answerOnSocket } from './socket-answer.js';

/** The members of the `ws` package's WebSocket that Kiln uses. */
interface WsSocket {
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code: number, reason: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'pong', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

interface WsServer {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, done: (socket: WsSocket) => void): void;
  on(event: 'headers', listener: (headers: string[], request: IncomingMessage) => void): void;
}

interface WsModule {
  WebSocketServer: new (options: { noServer: true; maxPayload: number; perMessageDeflate: false; clientTracking: false }) => WsServer;
}

/** The Node `upgrade` listener of an application, given what it needs. */
export type NodeUpgradeListener = (incoming: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Loads `ws` (KILN096 when it is not installed). */
async function loadWs(): Promise<WsModule> {
  try {
    const loaded = (await import('ws')) as unknown as WsModule & { default?: WsModule };
    const module = typeof loaded.WebSocketServer === 'function' ? loaded : loaded.default;
    if (typeof module?.WebSocketServer !== 'function') throw new TypeError("the 'ws' module exports no WebSocketServer");
    return module;
  } catch (error) {
    const failure = kilnError('KILN096', 'noWs', (error as Error)?.message ?? String(error));
    failure.cause = error;
    throw failure;
  }
}

/** The web Request of an upgrade request's head (it has no body: the handshake check refuses one). */
function webRequest(incoming: IncomingMessage): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const host = incoming.headers.host ?? 'localhost';
  const target = incoming.url ?? '/';
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? target : `http://${host}${target.startsWith('/') ? '' : '/'}${target}`;
  return new Request(url, { method: incoming.method, headers });
}

/** Headers that belong to a connection Kiln closes after the answer. */
const connectionHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Writes a web Response on a socket Node let go of, then closes it (the end of the body is the end of the connection). */
async function writeOnSocket(socket: Duplex, response: Response): Promise<void> {
  const head = [`HTTP/1.1 ${response.status} ${reasonPhrase(response.status) ?? ''}`];
  response.headers.forEach((value, name) => {
    if (!connectionHeaders.has(name)) head.push(`${name}: ${value}`);
  });
  head.push('connection: close');
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  if (response.body !== null) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (socket.destroyed) return;
      if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve));
    }
  }
  socket.end();
}

/** A session's socket, as the `ws` package holds it. */
function attach(session: SocketSession, ws: WsSocket): void {
  ws.on('error', () => {
    // ws closes the connection itself (1002, 1007, 1009): the 'close' event follows.
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      session.receivedBinary(Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer).byteLength);
      return;
    }
    const bytes = data as Buffer;
    session.receivedText(bytes.toString('utf8'), bytes.length);
  });
  ws.on('pong', () => session.ponged());
  ws.on('close', (code, reason) => session.closed(code, reason.toString('utf8')));
  session.opened({
    send: (text) => ws.send(text),
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    ping: () => ws.ping(),
  });
}

/**
 * The `upgrade` listener of an application with `@WebSocket` routes: a request for another
 * protocol (h2c) is refused as before; a WebSocket one is decided by the application, then either
 * answered or handed to `ws`.
 */
export async function nodeUpgradeListener(
  upgrade: UpgradeHandler,
  maxMessageSize: number,
  maxHeadersCount: number,
  errors: ErrorFormat,
): Promise<NodeUpgradeListener> {
  const { WebSocketServer } = await loadWs();
  // ws checks the payload size as frames arrive (1009 before a large message is held whole).
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageSize, perMessageDeflate: false, clientTracking: false });
  // Headers the application's chain added (a cookie, a request id), written on the 101.
  const extraHeaders = new WeakMap<IncomingMessage, Headers>();
  wss.on('headers', (lines, request) => {
    extraHeaders.get(request)?.forEach((value, name) => {
      lines.push(`${name}: ${value}`);
    });
  });

  const open = (incoming: IncomingMessage, socket: Duplex, head: Buffer, decision: UpgradeDecision): void => {
    if ('response' in decision) {
      writeOnSocket(socket, decision.response).catch(() => socket.destroy());
      return;
    }
    const { session } = decision;
    if (socket.destroyed) {
      session.closed(1006, '');
      return;
    }
    extraHeaders.set(incoming, decision.headers);
    let attached = false;
    // ws refused the handshake itself (it answers and closes): the session never opens.
    socket.once('close', () => {
      if (!attached) session.closed(1006, '');
    });
    wss.handleUpgrade(incoming, socket, head, (ws) => {
      attached = true;
      attach(session, ws);
    });
  };

  return (incoming, socket, head) => {
    // Node removes its own listeners from a socket it hands over: a reset must not become an uncaught error.
    socket.on('error', () => socket.destroy());
    if (!asksForWebSocketHead(incoming)) {
      refuseUpgrade(errors, incoming, socket);
      return;
    }
    const problem = headProblem(incoming, maxHeadersCount);
    if (problem !== undefined) {
      answerOnSocket(socket, errors, problem.status, problem.message);
      return;
    }
    let request: Request;
    try {
      request = webRequest(incoming);
    } catch {
      answerOnSocket(socket, errors, 400, 'The request head cannot be read as a WebSocket handshake');
      return;
    }
    // The peer's address: req.ip and the origin check believe forwarding headers only as trustProxy says.
    const decision = upgrade(request, incoming.socket.remoteAddress);
    if (decision instanceof Promise) {
      decision.then(
        (decided) => open(incoming, socket, head, decided),
        () => socket.destroy(),
      );
    } else {
      open(incoming, socket, head, decision);
    }
  };
}

/** `Upgrade: websocket` on a Node request head. */
function asksForWebSocketHead(incoming: IncomingMessage): boolean {
  const upgrade = incoming.headers.upgrade;
  return upgrade !== undefined && asksForWebSocket(new Headers({ upgrade }));
}
