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

/**
 * Runs `body` twice: over a real socket on 127.0.0.1, then in process through `app.fetch`, so
 * that both entry points are held to the same assertions.
 */
export async function overBothTransports(config: KilnConfig, body: (send: Send, transport: 'socket' | 'fetch') => Promise<void>): Promise<void> {
  const started = await start(config);
  try {
    await body((path, init) => request(started.base, path, init), 'socket');
    await body((path, init) => requestInProcess(started.app, path, init), 'fetch');
  } finally {
    await started.close();
  }
}
