import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How much of a refused body is drained once its answer is out: at most this many milliseconds
 * after the answer, and this many bytes in all; then the connection is closed whatever is left.
 */
export const lingerLimits = { milliseconds: 5_000, bytes: 16 * 1024 * 1024 } as const;

const kLingering = Symbol('kiln.lingering');

type LingeringSocket = Socket & { [kLingering]?: true };

/**
 * Closes the connection of a request whose body was refused before it was read to its end (an
 * early 413) in stages, as RFC 9112 §9.6 asks: send the answer, half-close, drain, then close.
 * Closing at once with unread bytes makes the kernel answer them with a reset, which destroys the
 * answer the client has not read yet (curl exit 55, ECONNRESET while it is still sending).
 *
 * From now on the rest of the body is read and thrown away (pausing past `lingerLimits.bytes`,
 * so a client that never stops cannot make Kiln read forever). Node ends a `connection: close`
 * response with `socket.destroySoon()`; for this socket that becomes: send FIN once the answer is
 * out, keep draining until the body ends, the byte bound is passed or `lingerLimits.milliseconds`
 * have gone by, then close. A body already read to its end keeps Node's own close.
 */
export function closeInStages(incoming: IncomingMessage): void {
  const socket = incoming.socket as LingeringSocket | null;
  if (socket === null || incoming.complete || socket[kLingering]) return;
  socket[kLingering] = true;
  let drained = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let answered = false;
  const close = () => {
    if (timer !== undefined) clearTimeout(timer);
    incoming.off('data', count);
    socket.destroy();
  };
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained <= lingerLimits.bytes) return;
    // Enough: read no more. The client is blocked by TCP, not reset, until the close.
    incoming.off('data', count);
    incoming.pause();
    if (answered) close();
  };
  incoming.on('data', count);
  incoming.once('end', () => {
    if (answered) close();
  });
  socket.once('close', () => {
    if (timer !== undefined) clearTimeout(timer);
  });
  incoming.resume();
  socket.destroySoon = () => {
    answered = true;
    // Half-close: FIN after the answer's bytes; the client may go on sending, and is read.
    socket.end();
    if (incoming.complete || drained > lingerLimits.bytes) {
      close();
      return;
    }
    timer = setTimeout(close, lingerLimits.milliseconds);
  };
}
