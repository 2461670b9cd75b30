import * as assert from 'uvu/assert';
import { createServer, type KilnConfig, type KilnServer } from '@kiln/core';

export interface Started {
  app: KilnServer;
  base: string;
  close(): Promise<void>;
}

/** A Kiln server listening on 127.0.0.1 on an ephemeral port. */
export async function start(config: KilnConfig): Promise<Started> {
  const app = createServer(config);
  const { port } = await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${port}`, close: () => app.close() };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

async function read(response: Response): Promise<Reply> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** A request over the socket. */
export async function request(base: string, path: string, init?: RequestInit): Promise<Reply> {
  return read(await fetch(base + path, init));
}

/** The same request through `app.fetch`, in process. */
export async function requestInProcess(app: KilnServer, path: string, init?: RequestInit): Promise<Reply> {
  return read(await app.fetch(new Request(`http://localhost${path}`, init)));
}

export type Send = (path: string, init?: RequestInit) => Promise<Reply>;
export type Transport = 'socket' | 'fetch';

/** Headers that belong to the connection, not to the answer: a socket has them, `app.fetch` does not. */
const connectionHeaders = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** What a reply says, without what only a socket says. */
function answerOf(reply: Reply): { status: number; headers: [string, string][]; text: string } {
  const headers = [...reply.headers].filter(([name]) => !connectionHeaders.has(name));
  return { status: reply.status, headers, text: reply.text };
}

export interface BothTransportsOptions {
  /**
   * Whether the two transports must give identical answers (status, headers, body) for every
   * request the body sends. Default true; only a case about what the transports legitimately
   * see differently (the client address, the host name) turns it off.
   */
  identical?: boolean;
}

/**
 * The shared contract suite: runs `body` over a real socket on 127.0.0.1, then in process
 * through `app.fetch`, holds both to the body's assertions, and then checks that both gave the
 * same answers, request by request.
 */
export async function overBothTransports(
  config: KilnConfig,
  body: (send: Send, transport: Transport) => Promise<void>,
  options: BothTransportsOptions = {},
): Promise<void> {
  const started = await start(config);
  const answers: Record<Transport, ReturnType<typeof answerOf>[]> = { socket: [], fetch: [] };
  const recording =
    (transport: Transport, send: Send): Send =>
    async (path, init) => {
      const reply = await send(path, init);
      answers[transport].push(answerOf(reply));
      return reply;
    };
  try {
    await body(
      recording('socket', (path, init) => request(started.base, path, init)),
      'socket',
    );
    await body(
      recording('fetch', (path, init) => requestInProcess(started.app, path, init)),
      'fetch',
    );
  } finally {
    await started.close();
  }
  if (options.identical ?? true) {
    assert.equal(answers.fetch, answers.socket, 'app.fetch answers exactly as the socket does');
  }
}
