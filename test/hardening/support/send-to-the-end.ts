// A client that keeps sending its request body to the end of what it declared, whatever the server
// answers meanwhile, then reads until the server closes: how the suites of the staged close
// (RFC 9112 §9.6: answer, half-close, drain, close) send, the lingering-close suite and the
// multipart limits fuzz. Each reads what came back its own way.
import net from 'node:net';

export interface SentToTheEnd {
  /** The socket failed (ECONNRESET, EPIPE) before the server closed it. */
  failed: boolean;
  /** Every byte the server sent. */
  received: Buffer;
}

export interface SendOptions {
  /** Bytes a write; the client yields to the event loop between writes, so it is still sending when an early answer comes. */
  piece: number;
  /**
   * Half-close only once the body is sent and the server has half-closed too, not as soon as the
   * body is sent: Node's server gives up a request whose client half-closes first, so a client
   * whose request may be served must wait.
   */
  finAfterServer: boolean;
}

/** Connects to 127.0.0.1:`port`, sends `head`, then `body` in pieces, and resolves once the server has closed. */
export function sendToTheEnd(port: number, head: string, body: Buffer, { piece, finAfterServer }: SendOptions): Promise<SentToTheEnd> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let failed = false;
    let done = false;
    let sent = false;
    let serverEnded = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ failed, received: Buffer.concat(chunks) });
    };
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {
      failed = true;
      finish();
    });
    socket.on('close', finish);
    socket.on('end', () => {
      serverEnded = true;
      if (finAfterServer && sent) socket.end();
    });
    socket.on('connect', async () => {
      socket.write(head);
      for (let at = 0; at < body.length && !socket.destroyed; at += piece) {
        if (!socket.write(body.subarray(at, at + piece))) await new Promise((r) => socket.once('drain', r));
        else await new Promise((r) => setImmediate(r));
      }
      sent = true;
      if (!socket.destroyed && (serverEnded || !finAfterServer)) socket.end();
    });
  });
}
