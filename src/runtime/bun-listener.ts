// The Bun listener: Bun.serve on app.fetch. Kiln's own limits (body size, URL length, header
// count) apply in the pipeline as on Node; Bun has one idle timeout where Node has three, and
// its header-size limit is the runtime's (docs/guide/runtimes.md lists what differs).
import { headLimitProblem } from './head-limits.js';
import type { Listening, SocketAddressOf, StartListener } from './listener.js';

interface BunServer {
  readonly port: number;
  readonly hostname: string;
  requestIP(request: Request): { address: string } | null;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

interface BunRuntime {
  serve(options: {
    port: number;
    hostname?: string;
    idleTimeout: number;
    development: boolean;
    fetch(request: Request, server: BunServer): Response | Promise<Response>;
  }): BunServer;
}

export const startBunListener: StartListener = async (target, port, host) => {
  const { config, serve, maxHeadersCount } = target;
  const maxHeaderSize = config.maxHeaderSize ?? 16 * 1024;
  const bun = (globalThis as unknown as { Bun: BunRuntime }).Bun;
  // Bun's one idle timeout (whole seconds, at most 255) stands for Node's headersTimeout and keepAliveTimeout.
  const idleMs = Math.max(config.headersTimeout ?? 10_000, config.keepAliveTimeout ?? 5_000);
  // One lookup for every request (no closure each): requestIP is a native call, made only when the address is read.
  const addressOf: SocketAddressOf = (request) => server.requestIP(request)?.address;
  const server: BunServer = bun.serve({
    port,
    hostname: host,
    idleTimeout: Math.min(255, Math.max(1, Math.ceil(idleMs / 1000))),
    development: false,
    fetch: (request) => headLimitProblem(request, maxHeadersCount, maxHeaderSize) ?? serve(request, addressOf),
  });
  return {
    address: { port: server.port, host: server.hostname },
    close: (shutdownTimeout): Promise<void> => {
      // stop() lets in-flight requests finish; stop(true) cuts whatever is left after the grace period.
      const grace = setTimeout(() => void server.stop(true), shutdownTimeout);
      return server.stop().finally(() => clearTimeout(grace));
    },
  } satisfies Listening;
};
