// The Deno listener: Deno.serve on app.fetch. Kiln's own limits (body size, URL length, header
// count) apply in the pipeline as on Node; Deno.serve has no timeout options and cannot cut a
// connection, so headersTimeout, requestTimeout and keepAliveTimeout are the runtime's, and
// close() stops waiting after shutdownTimeout (docs/guide/runtimes.md lists what differs).
import type { ErrorFormat } from '../../response/error-format.js';
import { headLimitProblem } from '../head-limits.js';
import { asksForWebSocket } from '../../websocket/handshake.js';
import { type DenoUpgradeWebSocket, denoUpgrade } from './deno-websocket.js';
import type { Listening, SocketAddressOf, StartListener } from '../listener.js';

interface DenoServer {
  readonly addr: { hostname: string; port: number };
  shutdown(): Promise<void>;
}

interface DenoRequestInfo {
  readonly remoteAddr: { hostname: string };
}

interface DenoRuntime {
  serve(
    options: { port: number; hostname?: string; reusePort: boolean; onListen(address: unknown): void },
    handler: (request: Request, info: DenoRequestInfo) => Response | Promise<Response>,
  ): DenoServer;
  upgradeWebSocket: DenoUpgradeWebSocket;
}

/** The client's address from Deno's per-request info, read only when something needs it (remoteAddr calls into the runtime). */
const remoteHostname: SocketAddressOf = (_request, info) => (info as DenoRequestInfo).remoteAddr.hostname;

/** The answer to a request that arrives while close() drains the ones in flight. */
function shuttingDown(errors: ErrorFormat): Response {
  return new Response(errors.body(503, 'The server is shutting down'), {
    status: 503,
    headers: { 'content-type': errors.contentType, connection: 'close' },
  });
}

export const startDenoListener: StartListener = async (target, port, host) => {
  const { limits, serve, errors } = target;
  const { maxHeaderSize, maxHeadersCount } = limits;
  const deno = (globalThis as unknown as { Deno: DenoRuntime }).Deno;
  const upgrade = target.upgrade;
  // Deno's shutdown() makes the bodies of requests in flight unreadable ("resource unavailable"):
  // close() first waits for every handler to settle (an upload still arriving finishes, as on Node
  // and Bun), answering new requests 503 meanwhile, then shuts the server down.
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  // An answer behind a promise is counted out as it settles, by one pair of callbacks for every
  // request (`finally` would add a closure and two promises to each answer).
  const settled = (response: Response): Response => {
    if (--inFlight === 0) drained?.();
    return response;
  };
  const failed = (error: unknown): never => {
    if (--inFlight === 0) drained?.();
    throw error;
  };
  const server = deno.serve(
    // Deno.serve's default onListen prints a line; listen() resolves with the address instead.
    { port, hostname: host, reusePort: target.reusePort, onListen: () => {} },
    (request, info) => {
      if (closing) return shuttingDown(errors);
      const answer =
        headLimitProblem(request, maxHeadersCount, maxHeaderSize, errors) ??
        // With @WebSocket routes, a request that asks for a WebSocket is decided, then upgraded by Deno.
        (upgrade !== undefined && asksForWebSocket(request.headers)
          ? denoUpgrade(request, upgrade, (r, o) => deno.upgradeWebSocket(r, o), target.webSocket, remoteHostname, info)
          : serve(request, remoteHostname, info));
      if (!(answer instanceof Promise)) return answer;
      inFlight++;
      return answer.then(settled, failed);
    },
  );
  return {
    address: { port: server.addr.port, host: server.addr.hostname },
    close: (shutdownTimeout): Promise<void> =>
      new Promise<void>((resolve) => {
        closing = true;
        const grace = setTimeout(resolve, shutdownTimeout);
        const idle = inFlight === 0 ? Promise.resolve() : new Promise<void>((done) => (drained = done));
        void idle
          .then(() => server.shutdown())
          .finally(() => {
            clearTimeout(grace);
            resolve();
          });
      }),
  } satisfies Listening;
};
