import type { ServerResponse } from 'node:http';
import { kilnError } from '../../kiln-error.js';
import type { NodeRequest } from './node-request.js';
import { kCloseConnection, kCompression, kReport, kSendTimeout } from '../../symbols.js';
import { addVary, compressionPlan, compressStream, markEncoded } from '../../compression/response-compression.js';
import { sendWhole } from './whole-answer.js';
import { isSendableStatus } from '../../response/header-rules.js';
import { decodedByFetch, sendableHeaders } from '../../response/response-framing.js';
import { withRecordedHeaders } from '../../response/web-response.js';
import { answerWriteFailure } from './write-failure.js';
import { responseSource } from '../../response/response-source.js';
import { keptBody, pendingHeaders } from '../../response/kiln-response.js';
import type { Socket } from 'node:net';
import { closeInStages } from './lingering-close.js';

type Chunk = { done: true; value?: undefined } | { done: false; value: unknown };
const notYet = Symbol('not yet');
const empty = new Uint8Array(0);
const nextTurn = () => new Promise<typeof notYet>((resolve) => setImmediate(resolve, notYet));

function bytesOf(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError(`A Response body stream must yield Uint8Array chunks, got ${chunk === null ? 'null' : typeof chunk}`);
}

/** The next chunk, read while the current one is written; marked handled, as it may be abandoned when the client goes. */
function readAhead(reader: ReadableStreamDefaultReader<unknown>): Promise<Chunk> {
  const read = reader.read() as Promise<Chunk>;
  read.catch(() => {});
  return read;
}

/**
 * Resolves once `res` can take more data, or once it is closed. A client that reads nothing for
 * `timeout` ms has its connection cut: otherwise it would hold the connection, and the body's
 * source, forever. 0 disables the timeout.
 */
function drained(res: ServerResponse, timeout: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    const timer =
      timeout > 0
        ? setTimeout(() => {
            res.destroy();
            done();
          }, timeout)
        : undefined;
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Sends a web Response over Node's ServerResponse. Kiln owns the framing: the Response's status
 * and headers are sent without its hop-by-hop and `content-length` headers; a body that is
 * complete within one turn of the event loop (a string, bytes, a small file) is sent with its
 * exact `content-length`, anything longer is streamed chunked, without buffering, with
 * backpressure. Never throws or rejects: what cannot be sent as built is a reported 500, or a cut
 * connection once the head is out.
 */
// hot path: the head and a kept or constructed string/bytes body are written synchronously; only a stream goes async
export function writeWebResponse(req: NodeRequest, response: Response): void {
  let status: number;
  let headers: string[];
  let body: ReadableStream<unknown> | null;
  let source: string | Uint8Array | undefined;
  try {
    // Asked of the handler's own Response: adding recorded headers may re-wrap a fetched one.
    const decoded = decodedByFetch(response);
    const merged = withRecordedHeaders(req, response);
    status = merged.status;
    if (!isSendableStatus(status)) throw kilnError('KILN042', 'responseStatus', String(status));
    // Kiln's own Response keeps its string or bytes: no stream is made or read to send them.
    source = keptBody(merged);
    body = null;
    if (source === undefined) {
      body = merged.body;
      if (merged.bodyUsed || body?.locked) throw kilnError('KILN043', 'bodyUsed');
      source = responseSource(merged);
    }
    headers = pendingHeaders(merged) ?? sendableHeaders(merged, decoded);
    if (req[kCloseConnection]) {
      headers.push('connection', 'close');
      closeInStages(req.incoming);
    }
  } catch (error) {
    answerWriteFailure(req, error);
    return;
  }

  // hot path: a Response built from a string or bytes is sent in one end(), its stream never read
  if (source !== undefined && status !== 204 && status !== 304) {
    sendWholeOrRefuse(req, status, headers, source);
    return;
  }
  const compression = req[kCompression];
  if (compression !== undefined && body !== null && status !== 204 && status !== 304) {
    const plan = compressionPlan(compression, req.method, status, headers, undefined);
    if (plan === 'vary') addVary(headers);
    else if (plan !== 'none') {
      markEncoded(headers, plan);
      body = compressStream(compression.settings, plan, body);
    }
  }
  if (body === null || req.method === 'HEAD' || status === 204 || status === 304) {
    if (body !== null) body.cancel().catch(() => {});
    sendWholeOrRefuse(req, status, headers, undefined);
    return;
  }

  void streamBody(req, status, headers, body);
}

/** Sends a body stream: with its exact length when it ends within one turn, chunked otherwise. Never rejects. */
async function streamBody(req: NodeRequest, status: number, headers: string[], body: ReadableStream<unknown>): Promise<void> {
  const res = req.response;
  const reader = body.getReader();
  // A client that goes away stops the body's source (a fetch upstream, a file) at once.
  const stop = () => reader.cancel().catch(() => {});
  res.once('close', stop);
  let headSent = false;
  try {
    const first = await reader.read();
    if (first.done) {
      sendWholeOrRefuse(req, status, headers, empty, false);
      return;
    }
    const firstBytes = bytesOf(first.value);
    // Read ahead one turn: a body complete by then has a known length; a slower one streams.
    let next: Chunk | Promise<Chunk> = readAhead(reader);
    const settled = await Promise.race([next, nextTurn()]);
    if (settled !== notYet) {
      next = settled as Chunk;
      if (next.done) {
        // Already encoded when compression() negotiated a coding: the stream was.
        sendWholeOrRefuse(req, status, headers, firstBytes, false);
        return;
      }
    }
    if (!writeHead(req, status, headers)) {
      stop();
      return;
    }
    headSent = true;
    clearSendDeadline(res);
    const timeout = req[kSendTimeout];
    let chunk: Chunk = { done: false, value: firstBytes };
    while (!chunk.done) {
      if (!res.write(bytesOf(chunk.value)) && !res.destroyed) await drained(res, timeout);
      if (res.destroyed) {
        stop();
        return;
      }
      chunk = await next;
      if (res.destroyed) return;
      next = chunk.done ? chunk : readAhead(reader);
    }
    res.end();
  } catch (error) {
    stop();
    if (!headSent && !res.headersSent) {
      answerWriteFailure(req, error);
      return;
    }
    // Headers are already sent: the only honest signal left is to cut the connection.
    const clientGone = res.destroyed;
    if (!res.destroyed) res.destroy();
    if (!clientGone) req[kReport](error);
  } finally {
    res.off('close', stop);
  }
}

/** {@link sendWhole}, or a reported bare 500 (KILN041) when Node refuses the head. */
function sendWholeOrRefuse(
  req: NodeRequest,
  status: number,
  headers: string[],
  body: string | Uint8Array | undefined,
  encode?: boolean,
): void {
  try {
    sendWhole(req, status, headers, body, encode);
  } catch (error) {
    answerWriteFailure(req, refused(error));
  }
}

/**
 * A streamed body is timed chunk by chunk instead (see `drained`), and may be quiet for long
 * between chunks (server-sent events): no deadline left by an earlier answer on the connection
 * applies to it.
 */
function clearSendDeadline(res: ServerResponse): void {
  const socket = res.socket;
  if (socket !== null) socket.setTimeout(0);
  else res.once('socket', (assigned: Socket) => assigned.setTimeout(0));
}

/** `writeHead`, or a reported bare 500 when Node refuses the head (false then). */
function writeHead(req: NodeRequest, status: number, headers: string[]): boolean {
  try {
    req.response.writeHead(status, headers);
    return true;
  } catch (error) {
    answerWriteFailure(req, refused(error));
    return false;
  }
}

function refused(error: unknown): unknown {
  const failure = kilnError('KILN041', 'notSendable', (error as Error)?.message ?? String(error));
  failure.cause = error;
  return failure;
}
