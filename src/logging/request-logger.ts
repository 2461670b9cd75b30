// One access-log line per request, in pino-http's field names, so dashboards and log tooling made
// for pino-http read Kiln's lines as they are.
import type { MiddlewareFunction } from '../middleware.js';
import type { RequestCore } from '../request/kiln-request.js';
import { kLogger, kRequestSpan, kTarget, kWhenAnswered } from '../symbols.js';
import { kilnError } from '../kiln-error.js';
import { isHeaderName } from '../response/header-rules.js';
import { isLogger, type Logger } from './logger.js';

/** What `requestLogger` takes. */
export interface RequestLoggerOptions {
  /** The logger to write to. Default: the application's (`createServer({ logger })`). */
  logger?: Logger;
  /** The answer header that echoes `req.id`; `false` echoes nothing. Default `'x-request-id'`. */
  header?: string | false;
}

/**
 * A middleware that writes one line per request once its answer is sent, with pino-http's
 * field names: `{ req: { id, method, url }, res: { statusCode }, responseTime, msg }` — at `info`
 * (`'request completed'`), at `error` for a 5xx (`'request errored'`), at `warn` when the client
 * left before the answer was sent whole (`'request aborted'`). `responseTime` is in whole
 * milliseconds. The request's id (`req.id`) is echoed in `X-Request-Id`. With `telemetry` on,
 * the line also has the request's `trace_id` and `span_id`.
 *
 * Put it first in `middlewares`, so that its time covers the others.
 *
 * @example
 * ```ts
 * createServer({ controllers, middlewares: [requestLogger(), cors()] });
 * // {"level":30,"time":…,"req":{"id":"4f1c…","method":"GET","url":"/books/1"},"res":{"statusCode":200},"responseTime":1,"msg":"request completed"}
 * ```
 */
export function requestLogger(options: RequestLoggerOptions = {}): MiddlewareFunction {
  if (options === null || typeof options !== 'object') throw kilnError('KILN007', 'requestLoggerOptions');
  if (options.logger !== undefined && !isLogger(options.logger)) throw kilnError('KILN007', 'requestLoggerLogger');
  const header = options.header ?? 'x-request-id';
  if (header !== false && !isHeaderName(header)) throw kilnError('KILN007', 'requestLoggerHeader', header);
  const chosen = options.logger;

  // hot path: a timestamp, one header, one listener; the line is written after the answer
  return (request) => {
    const req = request as RequestCore;
    const started = performance.now();
    const id = req.id;
    if (header !== false) req.setResponseHeader(header, id);
    req[kWhenAnswered]((statusCode, complete) => {
      const logger = chosen ?? req[kLogger];
      const fields: Record<string, unknown> = {
        req: { id, method: req.method, url: req[kTarget] },
        res: { statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      // With telemetry on, the line joins its trace.
      const trace = req[kRequestSpan]?.fields();
      if (trace !== undefined) {
        fields.trace_id = trace.trace_id;
        fields.span_id = trace.span_id;
      }
      if (!complete) logger.warn(fields, 'request aborted');
      else if (statusCode >= 500) logger.error(fields, 'request errored');
      else logger.info(fields, 'request completed');
    });
  };
}
