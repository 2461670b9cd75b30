import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  compressLater,
  compressNow,
  compressionPlan,
  addVary,
  largestSyncBody,
  markEncoded,
} from '../../compression/response-compression.js';
import type { NodeRequest } from './node-request.js';
import { kCompression, kReport, kSendTimeout } from '../../symbols.js';
import { answerWriteFailure } from './write-failure.js';

/**
 * Sends an answer whose whole body is known (a plain value's JSON, a `Response` built from a
 * string or bytes, an error, an empty answer) in one `writeHead` + `end`, which the client has
 * `sendTimeout` to take: the one place Kiln writes such an answer on Node. `headers` is the flat
 * list without `content-length`, which is added here from the bytes actually sent (none for
 * `body` undefined: an answer without content). When `compression()` negotiated a coding and the
 * answer is compressible, the body is compressed first (`encode` false: it already is); one too
 * large to compress on the event loop is compressed on zlib's thread pool. Throws what
 * `writeHead` throws (a header Node refuses); a failure after that is reported here.
 */
// hot path: no compression is one writeHead and one end
export function sendWhole(req: NodeRequest, status: number, headers: string[], body: string | Uint8Array | undefined, encode = true): void {
  const compression = encode && body !== undefined ? req[kCompression] : undefined;
  if (compression === undefined) {
    writeWhole(req, status, headers, body);
    return;
  }
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body!.byteLength;
  const plan = compressionPlan(compression, req.method, status, headers, size);
  if (plan === 'none' || plan === 'vary') {
    if (plan === 'vary') addVary(headers);
    writeWhole(req, status, headers, body);
    return;
  }
  markEncoded(headers, plan);
  if (size <= largestSyncBody) {
    writeWhole(req, status, headers, compressNow(compression.settings, plan, body!));
    return;
  }
  const res = req.response;
  compressLater(compression.settings, plan, body!).then(
    (encoded) => {
      if (res.destroyed) return;
      try {
        writeWhole(req, status, headers, encoded);
      } catch (error) {
        answerWriteFailure(req, error);
      }
    },
    (error) => {
      req[kReport](error);
      res.destroy();
    },
  );
}

function writeWhole(req: NodeRequest, status: number, headers: string[], body: string | Uint8Array | undefined): void {
  const res = req.response;
  let head = headers;
  if (body !== undefined) {
    const length = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    // The usual head (content-type only) is built whole: a push would grow its 2-element array into a larger copy.
    if (headers.length === 2) head = [headers[0]!, headers[1]!, 'content-length', length];
    else headers.push('content-length', length);
  }
  res.writeHead(status, head);
  endWithinSendTimeout(res, req[kSendTimeout], req.method === 'HEAD' ? undefined : body);
}

/**
 * Ends an answer whose body is handed to the socket whole and gives the client `timeout` ms to
 * take what the socket could not send at once: a client that stops reading would otherwise hold
 * the connection, and the body queued for it, for ever. The socket's own inactivity timer does it
 * — no allocation beyond Node's: any write that completes restarts it, and when it fires with
 * nobody listening, Node's HTTP server destroys the socket, which frees the queued body. Once the
 * answer is sent, Node replaces the timer with the keep-alive timeout. 0 disables it.
 */
// hot path: a small answer is taken whole by the kernel at `end`; nothing is queued, so no timer is
// set (Node would replace it with the keep-alive timeout a moment later anyway)
function endWithinSendTimeout(res: ServerResponse, timeout: number, body?: string | Uint8Array): void {
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
