import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestCore, RequestOptions } from '../../request/kiln-request.js';
import { isMultipart } from '../../request/body-parser.js';
import { bodyTooLarge } from '../../request/body-limit.js';
import { closeInStages } from './lingering-close.js';
import { NodeRequest } from './node-request.js';
import { headProblem } from './request-head.js';
import { writeError, writeErrorAnswer, writeResult } from './node-response.js';

/** What the Node entry points need of the application `createServer` assembles. */
export interface NodeApplication {
  /** Settles once the application has started (factories and init hooks run), or failed to. */
  readonly ready: Promise<void>;
  /** The request pipeline, once assembled. */
  readonly handle: (req: RequestCore) => unknown;
  readonly options: RequestOptions;
  readonly maxHeadersCount: number;
}

/** Node's two request listeners: `app.handler` (every request) and `checkContinue` (`Expect: 100-continue`). */
export interface NodeHandlers {
  readonly handler: (incoming: IncomingMessage, response: ServerResponse) => void;
  readonly checkContinue: (incoming: IncomingMessage, response: ServerResponse) => void;
}

export function nodeHandlers(app: NodeApplication): NodeHandlers {
  const { ready, handle, options, maxHeadersCount } = app;
  let started = false;
  ready.then(
    () => {
      started = true;
    },
    () => {},
  );

  // hot path: a request from a socket, through the pipeline, written straight to the socket
  const handler = (incoming: IncomingMessage, response: ServerResponse): void => {
    if (!started) {
      ready.then(
        () => handler(incoming, response),
        () => writeErrorAnswer(response, options.errors, 503, 'The application failed to start'),
      );
      return;
    }
    const problem = headProblem(incoming, maxHeadersCount);
    if (problem !== undefined) {
      // The head cannot be trusted, so neither can the rest of the connection.
      response.setHeader('connection', 'close');
      writeErrorAnswer(response, options.errors, problem.status, problem.message);
      return;
    }
    const req = new NodeRequest(incoming, response, options);
    let result: unknown;
    try {
      result = handle(req);
    } catch (error) {
      writeError(req, error);
      return;
    }
    writeResult(req, result);
  };

  /**
   * `Expect: 100-continue`: a body declared larger than maxBodySize (uploads.maxTotalSize for multipart) is refused before the client
   * sends it (413 without a 100, and the connection closed, as the client may send it anyway);
   * anything else gets its 100 and goes on like any request.
   */
  const checkContinue = (incoming: IncomingMessage, response: ServerResponse): void => {
    const declared = incoming.headers['content-length'];
    // A multipart body (an upload) has its own limit, uploads.maxTotalSize.
    const limit = isMultipart(incoming.headers['content-type'] ?? null) ? options.uploads.maxTotalSize : options.maxBodySize;
    if (declared !== undefined && Number(declared) > limit) {
      response.setHeader('connection', 'close');
      // A client may send the body anyway: it is drained, so that the 413 is read, not reset.
      closeInStages(incoming);
      writeErrorAnswer(response, options.errors, 413, bodyTooLarge(limit).message);
      return;
    }
    // A head that handler() refuses gets its error without a 100 first.
    if (headProblem(incoming, maxHeadersCount) === undefined) response.writeContinue();
    handler(incoming, response);
  };

  return { handler, checkContinue };
}
