// The Bun listener: Bun.serve on app.fetch. Kiln's own limits (body size, URL length, header
// count and size below Bun's own) apply as on Node; Bun has one idle timeout where Node has
// three, and its own header limits come first (docs/guide/runtimes.md lists what differs).
import { headLimitProblem } from '../head-limits.js';
import type { Listening, SocketAddressOf, StartListener } from '../listener.js';
import { asksForWebSocket } from '../../websocket/handshake.js';
import { type BunSocketHandlers, type BunUpgradingServer, bunSocketHandlers, bunUpgrade } from './bun-websocket.js';

interface BunServer extends BunUpgradingServer {
  readonly port: number;
  readonly hostname: string;
  requestIP(request: Request): { address: string } | null;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

interface BunRuntime {
  serve(options: {
    port: number;
    hostname?: string;
    reusePort: boolean;
    idleTimeout: number;
    development: boolean;
    fetch(request: Request, server: BunServer): Response | Promise<Response | undefined> | undefined;
    websocket?: BunSocketHandlers;
  }): BunServer;
}

/** The head size Bun refuses past itself unless started with `--max-http-header-size` (Bun's own default, not Kiln's). */
const bunDefaultMaxHeadBytes = 16 * 1024;

/** Bun refuses a request of more header lines than this itself (431, empty), whatever Kiln's limit. */
const bunMaxHeaderLines = 198;

/**
 * The head size past which Bun refuses a request itself (431, empty): 16 KiB unless Bun was
 * started with `--max-http-header-size` (read from the command line and BUN_OPTIONS: node:http's
 * `maxHeaderSize` says the same, but loading node:http costs Bun 50 ms or more of start).
 */
function bunMaxHeadBytes(): number {
  const processInfo = (globalThis as { process?: { execArgv?: string[]; env?: Record<string, string | undefined> } }).process;
  const given = `${processInfo?.execArgv?.join(' ') ?? ''} ${processInfo?.env?.BUN_OPTIONS ?? ''}`;
  const flag = /--max-http-header-size[= ](\d+)/.exec(given);
  return flag === null ? bunDefaultMaxHeadBytes : Number(flag[1]);
}

export const startBunListener: StartListener = async (target, port, host) => {
  const { limits, serve, errors } = target;
  const { maxHeaderSize, maxHeadersCount } = limits;
  const bun = (globalThis as unknown as { Bun: BunRuntime }).Bun;
  // Bun's one idle timeout (whole seconds, at most 255) stands for Node's headersTimeout and keepAliveTimeout.
  const idleMs = Math.max(limits.headersTimeout, limits.keepAliveTimeout);
  // One lookup for every request (no closure each): requestIP is a native call, made only when the address is read.
  const addressOf: SocketAddressOf = (request) => server.requestIP(request)?.address;
  const checkHead =
    maxHeaderSize < bunMaxHeadBytes() || maxHeadersCount < bunMaxHeaderLines
      ? (request: Request) => headLimitProblem(request, maxHeadersCount, maxHeaderSize, errors)
      : undefined;
  const upgrade = target.upgrade;
  const server: BunServer = bun.serve({
    port,
    hostname: host,
    reusePort: target.reusePort,
    idleTimeout: Math.min(255, Math.max(1, Math.ceil(idleMs / 1000))),
    development: false,
    // Limits at or above Bun's own are enforced by Bun before a request gets here: then no request pays for counting its head.
    fetch:
      upgrade !== undefined
        ? // With @WebSocket routes, a request that asks for a WebSocket is decided, then upgraded by Bun.
          (request, bunServer) =>
            checkHead?.(request) ??
            (asksForWebSocket(request.headers) ? bunUpgrade(request, bunServer, upgrade, addressOf) : serve(request, addressOf))
        : checkHead !== undefined
          ? (request) => checkHead(request) ?? serve(request, addressOf)
          : (request) => serve(request, addressOf),
    websocket: upgrade === undefined ? undefined : bunSocketHandlers(target.webSocket),
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
