import net from 'node:net';

export interface RawReply {
  /** Everything the server sent before closing (or before the wait ended). */
  text: string;
  /** True when the server closed the connection within the wait. */
  closed: boolean;
  /** Status codes of every response in `text`, in order. */
  statuses: number[];
  /** Milliseconds from connect to close (or to the end of the wait). */
  elapsed: number;
}

export interface RawOptions {
  /** How long to wait for the server to close before giving up. Default 2000 ms. */
  wait?: number;
  /** Resolve as soon as this many responses have arrived, without waiting for close. */
  responses?: number;
  /**
   * Write the payload in these pieces, with `pause` ms between them. Writing stops once the server
   * has closed its side: a piece sent after that would make it reset the connection, and a reset
   * may discard the answer before it is read.
   */
  pieces?: (string | Buffer)[];
  pause?: number;
}

/** Sends raw bytes to 127.0.0.1:port and collects what comes back. */
export function raw(port: number, payload: string | Buffer, options: RawOptions = {}): Promise<RawReply> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      socket.destroy();
      resolve({ text, closed, statuses, elapsed: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), options.wait ?? 2000);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (options.responses !== undefined) {
        const text = Buffer.concat(chunks).toString('latin1');
        const complete = [...text.matchAll(/HTTP\/1\.1 \d{3} /g)].length;
        if (complete >= options.responses && /\r\n\r\n/.test(text)) setTimeout(() => finish(false), 20);
      }
    });
    let serverEnded = false;
    socket.on('end', () => {
      serverEnded = true;
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', async () => {
      if (options.pieces === undefined) {
        socket.write(payload);
        return;
      }
      for (const piece of options.pieces) {
        if (socket.destroyed || serverEnded) return;
        socket.write(piece);
        await new Promise((r) => setTimeout(r, options.pause ?? 50));
      }
    });
  });
}

/** The JSON body of the last response in a raw reply. */
export function lastJsonBody(reply: RawReply): unknown {
  const start = reply.text.lastIndexOf('\r\n\r\n');
  return JSON.parse(reply.text.slice(start + 4));
}
