import { FetchRequest, type SocketAddressOf } from '../request/fetch-request.js';
import type { RequestCore, RequestOptions } from '../request/kiln-request.js';
import { answerWithResponse } from '../response/web-response-answer.js';

/** What the fetch entry needs of the application `createServer` assembles. */
export interface FetchApplication {
  readonly ready: Promise<void>;
  readonly started: boolean;
  readonly handle: (req: RequestCore) => unknown;
}

/** The fetch entry, told the client's socket address by a listener that knows it (`ListenTarget.serve`). */
export type Serve = (request: Request, socketAddress?: string | SocketAddressOf, context?: unknown) => Response | Promise<Response>;

/**
 * The same pipeline in process: a web Request in, a web Response out (at once when the pipeline
 * answers at once). Before the application has started, the request waits for it.
 */
export function fetchEntry(app: FetchApplication, options: RequestOptions): Serve {
  const serve: Serve = (request, socketAddress, context) => {
    if (!app.started) return app.ready.then(() => serve(request, socketAddress, context));
    return answerWithResponse(new FetchRequest(request, options, socketAddress, context), app.handle);
  };
  return serve;
}
