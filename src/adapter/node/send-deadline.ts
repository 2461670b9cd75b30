import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Ends an answer whose body is handed to the socket whole (a JSON value, a Response of known
 * length) and gives the client `timeout` ms to take what the socket could not send at once: a
 * client that stops reading would otherwise hold the connection, and the body queued for it, for
 * ever. The socket's own inactivity timer does it — no allocation beyond Node's: any write that
 * completes restarts it, and when it fires with nobody listening, Node's HTTP server destroys the
 * socket, which frees the queued body. Once the answer is sent, Node replaces the timer with the
 * keep-alive timeout. 0 disables it.
 */
// hot path: a small answer is taken whole by the kernel at `end`; nothing is queued, so no timer is
// set (Node would replace it with the keep-alive timeout a moment later anyway)
export function endWithinSendTimeout(res: ServerResponse, timeout: number, body?: string | Uint8Array): void {
  res.end(body);
  if (timeout <= 0) return;
  const socket = res.socket;
  // `writableLength` counts what is still queued (in the response and the socket); a server whose
  // responses do not report it is timed as if something were queued.
  if (socket !== null) {
    if (res.writableLength !== 0 && !socket.destroyed) socket.setTimeout(timeout);
  }
  // A pipelined answer waits for the one before it; its deadline starts when it gets the socket.
  else res.once('socket', (assigned: Socket) => assigned.setTimeout(timeout));
}

/**
 * A streamed body is timed chunk by chunk instead (see `drained` in the web response writer), and
 * may be quiet for long between chunks (server-sent events): no deadline left by an earlier
 * answer on the connection applies to it.
 */
export function clearSendDeadline(res: ServerResponse): void {
  const socket = res.socket;
  if (socket !== null) socket.setTimeout(0);
  else res.once('socket', (assigned: Socket) => assigned.setTimeout(0));
}
