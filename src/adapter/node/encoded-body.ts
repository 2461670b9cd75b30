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
import { endWithinSendTimeout } from './send-deadline.js';
import { answerWriteFailure } from './write-failure.js';

/**
 * Sends a complete body (a plain value's JSON, a `Response` built from a string or bytes) in one
 * `writeHead` + `end`, compressed when `compression()` negotiated a coding and the answer is
 * compressible. `headers` is the flat list without `content-length`, which is added here from
 * the bytes actually sent. A body too large to compress on the event loop is compressed on
 * zlib's thread pool first.
 */
export function sendWhole(req: NodeRequest, status: number, headers: string[], body: string | Uint8Array): void {
  const res = req.response;
  const compression = req[kCompression];
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const plan = compression === undefined ? 'none' : compressionPlan(compression, req.method, status, headers, size);
  if (plan === 'none' || plan === 'vary') {
    if (plan === 'vary') addVary(headers);
    headers.push('content-length', String(size));
    res.writeHead(status, headers);
    endWithinSendTimeout(res, req[kSendTimeout], req.method === 'HEAD' ? undefined : body);
    return;
  }
  markEncoded(headers, plan);
  const send = (encoded: Uint8Array): void => {
    headers.push('content-length', String(encoded.byteLength));
    res.writeHead(status, headers);
    endWithinSendTimeout(res, req[kSendTimeout], encoded);
  };
  if (size <= largestSyncBody) {
    send(compressNow(compression!.settings, plan, body));
    return;
  }
  compressLater(compression!.settings, plan, body).then(
    (encoded) => {
      if (res.destroyed) return;
      try {
        send(encoded);
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
