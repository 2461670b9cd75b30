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
export async function get(base: string, path: string, headers?: Record<string, string>): Promise<Reply> {
  return read(await fetch(base + path, { headers }));
}

/** The same request through `app.fetch`, in process (no socket). */
export async function getInProcess(app: KilnServer, path: string, headers?: Record<string, string>): Promise<Reply> {
  return read(await app.fetch(new Request(`http://localhost${path}`, { headers })));
}

/** The four rate-limit headers of a reply, null where absent. */
export function limitHeaders(reply: Reply) {
  return {
    limit: reply.headers.get('ratelimit-limit'),
    remaining: reply.headers.get('ratelimit-remaining'),
    reset: reply.headers.get('ratelimit-reset'),
    retryAfter: reply.headers.get('retry-after'),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
