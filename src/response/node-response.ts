import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { kCloseConnection, kReport, kResponseHeaders } from '../symbols.js';
import type { NodeRequest } from '../request/node-request.js';
import { errorOutcome } from './error-body.js';
import { jsonContentType, serialize, valueStatus } from './json-body.js';
import { withRecordedHeaders } from './web-response.js';

function appendRecorded(req: NodeRequest, headers: string[]): string[] {
  const recorded = req[kResponseHeaders];
  if (recorded !== undefined) for (let i = 0; i < recorded.length; i++) headers.push(recorded[i]!);
  if (req[kCloseConnection]) headers.push('connection', 'close');
  return headers;
}

/** Writes a complete JSON (or empty) response in one `writeHead` + `end`. */
export function writeJson(res: ServerResponse, req: NodeRequest | undefined, status: number, body: string | undefined): void {
  const headers = body === undefined ? [] : ['content-type', jsonContentType, 'content-length', String(Buffer.byteLength(body))];
  res.writeHead(status, req === undefined ? headers : appendRecorded(req, headers));
  res.end(body);
}

/** Streams a web Response to the socket: its status, its headers, its body without buffering. */
async function writeWebResponse(req: NodeRequest, response: Response): Promise<void> {
  const res = req.response;
  const merged = withRecordedHeaders(req, response);
  const headers: string[] = [];
  merged.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push(name, value);
  });
  for (const cookie of merged.headers.getSetCookie()) headers.push('set-cookie', cookie);
  if (req[kCloseConnection]) headers.push('connection', 'close');
  res.writeHead(merged.status, headers);
  const body = merged.body;
  if (body === null || req.method === 'HEAD' || merged.status === 204 || merged.status === 304) {
    res.end();
    if (body !== null) body.cancel().catch(() => {});
    return;
  }
  try {
    await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream), res);
  } catch (error) {
    // Headers are already sent: the only honest signal left is to cut the connection.
    if (!res.destroyed) res.destroy();
    if ((error as NodeJS.ErrnoException)?.code !== 'ERR_STREAM_PREMATURE_CLOSE') req[kReport](error);
  }
}

export function writeError(req: NodeRequest, error: unknown): void {
  const res = req.response;
  if (res.headersSent) {
    req[kReport](error);
    res.destroy();
    return;
  }
  const outcome = errorOutcome(error);
  if (outcome.unexpected) req[kReport](error);
  writeJson(res, req, outcome.status, outcome.body);
}

// hot path: a plain return value becomes one writeHead + end
export function writeValue(req: NodeRequest, value: unknown): void {
  if (value instanceof Response) {
    // Whatever escapes the streaming writer's own handling is answered (or cut) like any error.
    writeWebResponse(req, value).catch((error: unknown) => writeError(req, error));
    return;
  }
  let body: string | undefined;
  try {
    body = serialize(value);
  } catch (error) {
    writeError(req, error);
    return;
  }
  writeJson(req.response, req, valueStatus(req, value), body);
}
