import type { ServerResponse } from 'node:http';
import type { NodeRequest } from './node-request.js';
import { kCloseConnection, kErrorFormat, kReport } from '../../symbols.js';
import type { ErrorFormat } from '../../response/error-format.js';
import { closeInStages } from './lingering-close.js';

/**
 * The last resort when a response cannot be written as built (a header or status Node refuses, a
 * body that cannot be read): reported once, then a bare 500 — none of the response's own or
 * recorded headers — if the head is not sent yet, else the connection is cut (the only honest
 * signal once a status line is out). Never throws.
 */
export function answerWriteFailure(req: NodeRequest, error: unknown): void {
  req[kReport](error);
  if (req[kCloseConnection]) closeInStages(req.incoming);
  bareInternalError(req.response, req[kCloseConnection], req[kErrorFormat]);
}

/** A 500 with only Kiln's own headers, or a cut connection when the head was already sent. */
export function bareInternalError(res: ServerResponse, close: boolean, errors: ErrorFormat): void {
  try {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    // No instance: the path is one more thing that might be what failed to be written.
    const body = errors.body(500, 'Internal Server Error');
    const headers = ['content-type', errors.contentType, 'content-length', String(Buffer.byteLength(body))];
    if (close) headers.push('connection', 'close');
    res.writeHead(500, 'Internal Server Error', headers);
    res.end(body);
  } catch {
    res.destroy();
  }
}
