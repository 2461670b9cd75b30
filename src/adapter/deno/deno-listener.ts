// The Deno listener: Deno.serve on app.fetch. Kiln's own limits (body size, URL length, header
// count) apply in the pipeline as on Node; Deno.serve has no timeout options and cannot cut a
// connection, so headersTimeout, requestTimeout and keepAliveTimeout are the runtime's, and
// close() stops waiting after shutdownTimeout (docs/guide/runtimes.md lists what differs).
import { headLimitProblem } from '../head-limits.js';
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
}

/** The client's address from Deno's per-request info, read only when something needs it (remoteAddr calls into the runtime). */
const remoteHostname: SocketAddressOf = (_request, info) => (info as DenoRequestInfo).remoteAddr.hostname;

export const startDenoListener: StartListener = async (target, port, host) => {
  const { config, serve, maxHeadersCount } = target;
  const maxHeaderSize = config.maxHeaderSize ?? 16 * 1024;
  const deno = (globalThis as unknown as { Deno: DenoRuntime }).Deno;
  const server = deno.serve(
    // Deno.serve's default onListen prints a line; listen() resolves with the address instead.
    { port, hostname: host, reusePort: target.reusePort, onListen: () => {} },
    (request, info) => headLimitProblem(request, maxHeadersCount, maxHeaderSize) ?? serve(request, remoteHostname, info),
  );
  return {
    address: { port: server.addr.port, host: server.addr.hostname },
    close: (shutdownTimeout): Promise<void> =>
      new Promise<void>((resolve) => {
        const grace = setTimeout(resolve, shutdownTimeout);
        void server.shutdown().finally(() => {
          clearTimeout(grace);
          resolve();
        });
      }),
  } satisfies Listening;
};
