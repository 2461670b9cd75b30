import type { ServerResponse } from 'node:http';
import { kCloseConnection, kErrorFormat, kReport, kResponseHeaders } from '../../symbols.js';
import { sendWhole } from './whole-answer.js';
import type { NodeRequest } from './node-request.js';
import { isPromiseLike } from '../../is-promise-like.js';
import { kilnError } from '../../kiln-error.js';
import { errorOutcome } from '../../response/error-body.js';
import type { ErrorFormat } from '../../response/error-format.js';
import { isSendableStatus } from '../../response/header-rules.js';
import { jsonContentType, serialize, valueStatus } from '../../response/json-body.js';
import { writeWebResponse } from './web-response-to-node.js';
import { answerWriteFailure } from './write-failure.js';
import { closeInStages } from './lingering-close.js';

/**
 * The recorded headers (`req.setResponseHeader`, middlewares) after `headers`, and `connection:
 * close` when the request asked for it (its unread body is then drained in stages).
 */
function appendRecorded(req: NodeRequest, headers: string[]): string[] {
  const recorded = req[kResponseHeaders];
  if (recorded !== undefined) for (let i = 0; i < recorded.length; i++) headers.push(recorded[i]!);
  if (req[kCloseConnection]) {
    headers.push('connection', 'close');
    closeInStages(req.incoming);
  }
  return headers;
}

/**
 * Writes one of Kiln's own error answers that come before any request object exists (a head that
 * cannot be trusted, a 100-continue refused, an Expect nobody meets), in the server's error
 * format: every header is Kiln's, and the body is a few hundred bytes, which a socket's buffer
 * always takes at once.
 */
export function writeErrorAnswer(res: ServerResponse, errors: ErrorFormat, status: number, message: string): void {
  const body = errors.body(status, message);
  res.writeHead(status, ['content-type', errors.contentType, 'content-length', String(Buffer.byteLength(body))]);
  res.end(body);
}

// hot path: a plain return value or an error, with the request's recorded headers
function writeRequestJson(req: NodeRequest, status: number, body: string | undefined, contentType = jsonContentType): void {
  try {
    if (!isSendableStatus(status)) throw kilnError('KILN042', 'routeStatus', req.method, req.path, String(status));
    sendWhole(req, status, appendRecorded(req, body === undefined ? [] : ['content-type', contentType]), body);
  } catch (error) {
    answerWriteFailure(req, error);
  }
}

/** Answers an error thrown or rejected by the pipeline. Never throws. */
export function writeError(req: NodeRequest, error: unknown): void {
  const res = req.response;
  if (res.headersSent) {
    req[kReport](error);
    res.destroy();
    return;
  }
  const format = req[kErrorFormat];
  const outcome = errorOutcome(error, format, req.path);
  if (outcome.unexpected) req[kReport](outcome.reported);
  writeRequestJson(req, outcome.status, outcome.body, format.contentType);
}

// hot path: a plain return value becomes one writeHead + end
/** Answers the pipeline's value: a web Response is streamed, anything else sent as JSON. Never throws. */
export function writeValue(req: NodeRequest, value: unknown): void {
  let body: string | undefined;
  try {
    if (value instanceof Response) {
      writeWebResponse(req, value);
      return;
    }
    body = serialize(req, value);
  } catch (error) {
    // a value JSON cannot serialise, or a Proxy whose traps throw
    writeError(req, error);
    return;
  }
  writeRequestJson(req, valueStatus(req, value), body);
}

/**
 * Answers what `dispatch` returned: a value now, or a promise (or any thenable, even a hostile
 * one) once it settles. Never throws, and no rejection is left unhandled.
 */
export function writeResult(req: NodeRequest, result: unknown): void {
  try {
    if (!isPromiseLike(result)) {
      writeValue(req, result);
      return;
    }
    // Promise.resolve adopts a thenable in a job of its own, so a `then` that throws is a rejection.
    Promise.resolve(result).then(
      (value) => writeValue(req, value),
      (error) => writeError(req, error),
    );
  } catch (error) {
    writeError(req, error);
  }
}
