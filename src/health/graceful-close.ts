import type { Container } from '../injection/container.js';
import type { Logger } from '../logging/logger.js';
import type { RequestSignals } from '../request/request-signals.js';
import type { HealthPlan } from './health-routes.js';
import type { Lifecycle } from './lifecycle.js';

/** What close() stops: a listening server, on whichever runtime (the adapter's `Listening`). */
interface ClosableServer {
  close(shutdownTimeout: number): Promise<void>;
}

export interface GracefulCloseOptions {
  readonly lifecycle: Lifecycle;
  readonly container: Container;
  /** The listening server, when `listen()` was called. */
  readonly listening: () => Promise<ClosableServer> | undefined;
  readonly health: HealthPlan | undefined;
  readonly shutdownTimeout: number;
  /** The open requests' signals, aborted at the deadline. */
  readonly signals: RequestSignals;
  readonly logger: Logger;
  /** Closes the WebSocket connections (1001), cutting those still open at the deadline given (a time in ms). */
  readonly closeSockets: (deadline: number) => Promise<void>;
}

/** The reason of every open `req.signal` when close()'s shutdownTimeout passes. */
function shutdownDeadlinePassed(milliseconds: number): DOMException {
  return new DOMException(`The server is shutting down: its ${milliseconds} ms shutdown deadline passed`, 'AbortError');
}

/**
 * `app.close()`: readiness turns 503, the server drains (health.drainDelay), stops accepting and
 * lets in-flight requests finish, then the onClose() hooks run. shutdownTimeout bounds the whole
 * close; a hook still running at the deadline is logged by name and abandoned. Every call after
 * the first answers with the first's promise.
 */
export function gracefulClose(options: GracefulCloseOptions): () => Promise<void> {
  const { lifecycle, container, health, shutdownTimeout, signals, logger } = options;
  let closing: Promise<void> | undefined;
  return () => {
    lifecycle.closing = true;
    const deadline = Date.now() + (health?.drainDelay ?? 0) + shutdownTimeout;
    const abandoned = (hook: string, late: Promise<unknown>): void => {
      logger.error({ hook, shutdownTimeout }, `${hook} was still running ${shutdownTimeout} ms after close() began: abandoned`);
      late.catch((error) => logger.error({ err: error, hook }, `${hook} failed after it was abandoned`));
    };
    const closeServices = () => container.close(deadline, abandoned);
    const listening = options.listening();
    if (listening === undefined) return (closing ??= closeServices());
    // With health.drainDelay, the server goes on serving (readiness 503) while the load balancer notices.
    const drained =
      health === undefined || health.drainDelay === 0
        ? listening
        : listening.then(async (server) => {
            await new Promise((resolve) => setTimeout(resolve, health.drainDelay));
            return server;
          });
    closing ??= drained
      .then(
        (server) => {
          // At the deadline, handlers still at work are told (req.signal) just before their connections are cut.
          const abortTimer = setTimeout(() => signals.abortAll(shutdownDeadlinePassed(shutdownTimeout)), shutdownTimeout);
          // WebSocket connections are closed with 1001 and event streams ended while HTTP ones drain, within the deadline.
          lifecycle.eventStreams.endAll();
          const socketsClosed = options.closeSockets(Date.now() + shutdownTimeout);
          return Promise.all([server.close(shutdownTimeout), socketsClosed]).finally(() => clearTimeout(abortTimer));
        },
        () => {},
      )
      .then(closeServices);
    return closing;
  };
}
