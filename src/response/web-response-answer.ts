// The answer `app.fetch` gives, and the Bun and Deno listeners send: the pipeline's result as a
// web Response. A pipeline that answers within the call is answered within the call too: a
// runtime's server sends a Response handed back at once on its fast path, and waits a turn (or
// more) for one behind a promise.
import type { RequestCore } from '../request/kiln-request.js';
import { platformResponse, platformSendsResponses } from './platform-response.js';
import { kAnswered, kRemoveUploads, kServerClosing } from '../symbols.js';
import { withConnectionClose } from './connection-close.js';
import { encodedWebResponse, errorToWebResponse, finalWebResponse, valueToWebResponse } from './web-response.js';

/** What a handler's or middleware's value becomes; a failure to build it is answered as an error. */
function fromValue(req: RequestCore, value: unknown): Response {
  try {
    return encodedWebResponse(req, finalWebResponse(req, valueToWebResponse(req, value)));
  } catch (error) {
    return fromError(req, error);
  }
}

function fromError(req: RequestCore, error: unknown): Response {
  return encodedWebResponse(req, errorToWebResponse(req, error));
}

/** The answer is made: its listeners are told, once the request's uploads (if any) are removed. */
function answered(req: RequestCore, response: Response): Response | Promise<Response> {
  const removing = req[kRemoveUploads]();
  if (removing !== undefined) return removing.then(() => told(req, response));
  return told(req, response);
}

function told(req: RequestCore, response: Response): Response {
  req[kAnswered](response.status);
  if (!platformSendsResponses) return response;
  // Bun and Deno send it: while the server closes, the client is told not to come back on this connection.
  return req[kServerClosing] ? withConnectionClose(platformResponse(response)) : platformResponse(response);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs `handle` (the pipeline) on `req` and answers with a web Response: at once when the
 * pipeline's result is not a promise, once it settles otherwise. Never throws or rejects: a
 * failure is answered as the error it is.
 */
// hot path (Bun, Deno, app.fetch): no async function, so a synchronous pipeline costs no promise
export function answerWithResponse(req: RequestCore, handle: (req: RequestCore) => unknown): Response | Promise<Response> {
  let result: unknown;
  try {
    result = handle(req);
  } catch (error) {
    return answered(req, fromError(req, error));
  }
  if (!isThenable(result)) return answered(req, fromValue(req, result));
  return Promise.resolve(result).then(
    (value) => answered(req, fromValue(req, value)),
    (error: unknown) => answered(req, fromError(req, error)),
  );
}
