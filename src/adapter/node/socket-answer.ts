import { reasonPhrase } from '../../response/reason-phrase.js';
import type { Duplex } from 'node:stream';
import type { ErrorFormat } from '../../response/error-format.js';

/**
 * Writes a complete error answer (in the server's error format) straight to a socket that Node's HTTP machinery has let go
 * of (a parse error, an Upgrade or a CONNECT nobody accepts), then closes it: the bytes after such
 * a head belong to no request Kiln can read. `extra` is a list of further header lines.
 */
export function answerOnSocket(socket: Duplex, errors: ErrorFormat, status: number, message: string, extra: readonly string[] = []): void {
  // Node removes its own listeners from a socket it hands over: a reset must not become an uncaught error.
  if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = errors.body(status, message);
  const head = [
    `HTTP/1.1 ${status} ${reasonPhrase(status)}`,
    `content-type: ${errors.contentType}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...extra,
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  (socket as Duplex & { destroySoon?: () => void }).destroySoon?.();
}
