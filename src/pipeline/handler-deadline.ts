// A route's handlerTimeout: the handler's promise against a timer. Whichever comes first is the
// answer; the other is dropped, so a request is answered once, however late the handler is.
import type { CompiledRoute } from '../app/route-table.js';
import { HttpError } from '../http-error.js';
import type { RequestCore } from '../request/kiln-request.js';
import { kAbort } from '../symbols.js';

/** The answer of a handler past its deadline: 503, as the instance could not serve it in time (a retry may succeed). */
export function handlerTimedOut(milliseconds: number): HttpError {
  return new HttpError(503, `The handler did not answer within ${milliseconds} ms`);
}

/** A late Response's body is never read: cancel it, so that its source (a file, an upstream fetch) is released. */
function discard(late: unknown): void {
  if (late instanceof Response && late.body !== null && !late.bodyUsed) late.body.cancel().catch(() => {});
}

/**
 * `pending` (the binder and handler of `route`), or a 503 `HttpError` once `route.timeout` ms have
 * passed: then `req.signal` is aborted with a `TimeoutError`, a `warn` line names the route, and
 * whatever the handler answers later is discarded.
 */
export function withinDeadline(req: RequestCore, route: CompiledRoute, pending: PromiseLike<unknown>): Promise<unknown> {
  const milliseconds = route.timeout;
  return new Promise<unknown>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      req[kAbort](new DOMException(`The handler did not answer within ${milliseconds} ms`, 'TimeoutError'));
      req.log.warn(
        { route: `${route.info.method} ${route.info.path}`, handler: route.name, handlerTimeout: milliseconds, path: req.path },
        'handler timed out',
      );
      reject(handlerTimedOut(milliseconds));
    }, milliseconds);
    Promise.resolve(pending).then(
      (value) => {
        if (late) return discard(value);
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        // A late failure is the aborted work giving up: the client already has its 503.
        if (late) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
