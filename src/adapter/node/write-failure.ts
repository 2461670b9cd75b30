import type { ServerResponse } from 'node:http';
import type { NodeRequest } from './node-request.js';
import { kCloseConnection, kReport } from '../../symbols.js';
import { errorBody } from '../../response/error-body.js';
import { jsonContentType } from '../../response/json-body.js';
import { closeInStages } from './lingering-close.js';

const internalBody = errorBody(500, 'Internal Server Error');
const internalLength = String(Buffer.byteLength(internalBody));

/**
 * The last resort when a response cannot be written as built (a header or status Node refuses, a
 * body that cannot be read): reported once, then a bare 500 — none of the response's own or
 * recorded headers — if the head is not sent yet, else the connection is cut (the only honest
 * signal once a status line is out). Never throws.
 */
export function answerWriteFailure(req: NodeRequest, error: unknown): void {
  req[kReport](error);
  if (req[kCloseConnection]) closeInStages(req.incoming);
  bareInternalError(req.response, req[kCloseConnection]);
}

/** A 500 with only Kiln's own headers, or a cut connection when the head was already sent. */
export function bareInternalError(res: ServerResponse, close: boolean): void {
  try {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const headers = ['content-type', jsonContentType, 'content-length', internalLength];
    if (close) headers.push('connection', 'close');
    res.writeHead(500, 'Internal Server Error', headers);
    res.end(internalBody);
  } catch {
    res.destroy();
  }
}
