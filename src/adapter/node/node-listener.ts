// The Node listener: node:http with Kiln's limits and graceful close. `listen()` loads it on Node
// only, and it takes node:http from the runtime rather than importing it, so that no bundle of an
// app (a Worker's included) carries a `node:` import.
import type * as Http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { answerClientError } from './client-error.js';
import { refuseConnect, refuseExpectation, refuseUpgrade } from './protocol-refusals.js';
import type { Listening, StartListener } from '../listener.js';
import { optionalNodeBuiltin } from '../../node-builtin.js';
import { nodeUpgradeListener } from './node-websocket.js';

/** Node's server options, with the one this package's @types/node (Node 20's) does not know yet. */
type NodeServerOptions = Http.ServerOptions & { optimizeEmptyRequests?: boolean };

export const startNodeListener: StartListener = async (target, port, host) => {
  const { limits, handler, checkContinue, errors } = target;
  const { headersTimeout, requestTimeout, keepAliveTimeout, maxHeaderSize, maxHeadersCount } = limits;
  const http = optionalNodeBuiltin<typeof Http>('node:http')!;
  const options: NodeServerOptions = {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout,
    maxHeaderSize,
    // Kiln answers a missing Host itself, with its JSON error body (see headProblem).
    requireHostHeader: false,
    // Node enforces the two timeouts above only this often (30 s by default).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
    // Node 24+: a request without Content-Length or Transfer-Encoding (no body, RFC 9112 6.3)
    // skips the IncomingMessage's readable life cycle ('end', 'close', the dump after the
    // answer); NodeRequest reads such a body as empty without waiting for events. Older Node
    // ignores the option.
    optimizeEmptyRequests: true,
  };
  const server = http.createServer(options, handler);
  server.on('clientError', (error: Error, socket: Socket) => answerClientError(errors, error, socket));
  // With @WebSocket routes, ws (loaded now: KILN096 when missing) takes the upgrades the application accepts.
  server.on(
    'upgrade',
    target.upgrade === undefined
      ? (request: Http.IncomingMessage, socket: Duplex) => refuseUpgrade(errors, request, socket)
      : await nodeUpgradeListener(target.upgrade, target.webSocket.maxMessageSize, maxHeadersCount, errors),
  );
  server.on('connect', (request: Http.IncomingMessage, socket: Duplex) => refuseConnect(errors, request, socket));
  server.on('checkContinue', checkContinue);
  server.on('checkExpectation', (request: Http.IncomingMessage, response: Http.ServerResponse) =>
    refuseExpectation(errors, request, response),
  );
  // One line more than the limit is kept, so that headProblem can tell "more" from "exactly".
  server.maxHeadersCount = maxHeadersCount + 1;
  return new Promise<Listening>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, reusePort: target.reusePort }, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        address: { port: address.port, host: address.address },
        close: (shutdownTimeout) => closeGracefully(server, shutdownTimeout),
      });
    });
  });
};

function closeGracefully(server: Http.Server, shutdownTimeout: number): Promise<void> {
  return new Promise<void>((resolve) => {
    // Idle keep-alive connections are closed at once and again as in-flight ones finish;
    // whatever is still open after the grace period is cut.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const grace = setTimeout(() => server.closeAllConnections(), shutdownTimeout);
    sweep.unref();
    grace.unref();
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(grace);
      resolve();
    });
    server.closeIdleConnections();
  });
}
