// A WebSocket client for the suites (the `ws` package), with what a test waits for: the next
// message, the close code and reason, the answer of a refused upgrade.
import { WebSocket as WsClient, type ClientOptions } from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

export interface Refused {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export class SocketClient {
  readonly messages: unknown[] = [];
  readonly closed: Promise<Closed>;
  #waiting: ((message: unknown) => void)[] = [];
  /** Headers of the 101 answer. */
  upgradeHeaders: Record<string, string | string[] | undefined> = {};

  constructor(readonly ws: WsClient) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
    ws.on('upgrade', (response) => {
      this.upgradeHeaders = response.headers;
    });
    ws.on('error', () => {});
    ws.on('message', (data, isBinary) => {
      const message = isBinary ? data : JSON.parse(data.toString());
      const waiter = this.#waiting.shift();
      if (waiter !== undefined) waiter(message);
      else this.messages.push(message);
    });
  }

  /** The next message (JSON-parsed), in arrival order. */
  next(): Promise<unknown> {
    if (this.messages.length > 0) return Promise.resolve(this.messages.shift());
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(code?: number): Promise<Closed> {
    this.ws.close(code);
    return this.closed;
  }
}

/** Opens a connection; rejects with the answer when the server refuses the upgrade. */
export function connect(url: string, options: ClientOptions = {}): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const ws = new WsClient(url, options);
    const client = new SocketClient(ws);
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        reject(Object.assign(new Error('refused'), { status: response.statusCode, headers: response.headers, body })),
      );
    });
    ws.once('error', (error) => reject(error));
  });
}

/** The answer of an upgrade the server refuses. */
export async function refusal(url: string, options: ClientOptions = {}): Promise<Refused> {
  try {
    const client = await connect(url, options);
    client.ws.terminate();
    throw new Error(`${url} opened a connection`);
  } catch (error) {
    const { status, headers, body } = error as Partial<Refused>;
    if (status === undefined) throw error;
    return { status, headers: headers ?? {}, body: body ?? '' };
  }
}
