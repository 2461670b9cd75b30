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
  /** How many of `pieces` were written before the server closed its side. */
  piecesWritten: number;
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
  /** Milliseconds between pieces, or 'turn': the next piece once the last is flushed and the event loop has turned. */
  pause?: number | 'turn';
  /** Called with everything received so far, each time more arrives (a test's event to act on). */
  onData?: (received: string) => void;
}

/** Sends raw bytes to 127.0.0.1:port and collects what comes back. */
export function raw(port: number, payload: string | Buffer, options: RawOptions = {}): Promise<RawReply> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let finished = false;
    let piecesWritten = 0;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      socket.destroy();
      resolve({ text, closed, statuses, elapsed: Date.now() - started, piecesWritten });
    };
    const timer = setTimeout(() => finish(false), options.wait ?? 2000);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      options.onData?.(Buffer.concat(chunks).toString('latin1'));
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
      const pause = options.pause ?? 50;
      for (const piece of options.pieces) {
        if (socket.destroyed || serverEnded) return;
        if (pause === 'turn') {
          await new Promise((flushed) => socket.write(piece, flushed));
          await new Promise((turned) => setImmediate(turned));
        } else {
          socket.write(piece);
          await new Promise((r) => setTimeout(r, pause));
        }
        piecesWritten++;
      }
    });
  });
}

/** The JSON body of the last response in a raw reply. */
export function lastJsonBody(reply: RawReply): unknown {
  const start = reply.text.lastIndexOf('\r\n\r\n');
  return JSON.parse(reply.text.slice(start + 4));
}
