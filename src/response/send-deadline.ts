import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Gives a client `timeout` ms to take an answer whose body is handed to the socket whole (a JSON
 * value, a Response of known length): a client that stops reading would otherwise hold the
 * connection, and the body queued for it, for ever. The socket's own inactivity timer does it —
 * no allocation beyond Node's: any write that completes restarts it, and when it fires with nobody
 * listening, Node's HTTP server destroys the socket, which frees the queued body. Once the answer
 * is sent, Node replaces the timer with the keep-alive timeout. 0 disables it.
 */
export function armSendDeadline(res: ServerResponse, timeout: number): void {
  if (timeout <= 0) return;
  const socket = res.socket;
  if (socket !== null) socket.setTimeout(timeout);
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
