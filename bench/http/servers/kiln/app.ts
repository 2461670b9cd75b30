// The Kiln benchmark application, without a socket: routes (a)–(c), and with `rateLimited` every
// route behind a global @kiln/rate-limit; with `logFile`, behind requestLogger() writing to that
// file; with `compressed`, compression() in front; with `jwtSecret`, behind jwtGuard (HS256). server.ts listens with it; the in-process
// benchmark drives its `handler` directly.
import { compression, createServer, requestLogger, type KilnServer, type Logger, type MiddlewareLike } from '@kiln/core';
import { HelloController, MixedController, UsersController } from './users-controller.js';

export async function createKilnApp({
  rateLimited = false,
  logFile = undefined as string | undefined,
  // With `logFile`: requestLogger() writes to a logger that drops every line (its own cost alone).
  dropLines = false,
  // With `logFile`: pino builds every line and hands it to a destination that drops it.
  buildOnly = false,
  compressed = false,
  jwtSecret = undefined as string | undefined,
} = {}): Promise<KilnServer> {
  const middlewares: MiddlewareLike[] = [];
  // Only for the compression part (bench/http/compression.bench.mjs).
  if (compressed) middlewares.push(compression());
  let logger: Logger | undefined;
  if (logFile !== undefined) {
    // The logged variant: requestLogger() first, pino writing to a file as the logging page
    // documents it (`pino(pino.destination(path))`: one synchronous write per line, nothing held
    // in memory). pino's buffered forms (4 KiB asynchronous or synchronous writes) cost the same
    // CPU per request on route (b) within the slots' spread (bench/results/2026-11-27-cold-start-logger.md).
    // pino is Kiln's optional peer, installed at the root.
    const { default: pino } = await import('pino');
    logger = dropLines ? droppingLogger() : buildOnly ? pino({}, { write: () => {} }) : pino(pino.destination(logFile));
    middlewares.push(requestLogger());
  }
  if (rateLimited) {
    // Loaded only for scenario (d): the other servers run without it, like the other frameworks'.
    const { rateLimit } = await import('@kiln/rate-limit');
    middlewares.push(rateLimit({ max: 1_000_000_000, windowMs: 60_000 }));
  }
  if (jwtSecret !== undefined) {
    // The JWT part (bench/http/jwt-guard.bench.mjs): every route behind jwtGuard, HS256.
    const { jwtGuard } = await import('@kiln/core');
    middlewares.push(jwtGuard({ algorithms: ['HS256'], secret: jwtSecret }));
  }
  // strictValidation: typed APIs run with it (route (c)'s body is validated only then).
  return createServer({ controllers: [HelloController, UsersController, MixedController], middlewares, strictValidation: true, logger });
}

/** A logger that writes nothing: what requestLogger() costs before the logger's own work. */
function droppingLogger(): Logger {
  const drop = (): void => {};
  const logger: Logger = { info: drop, warn: drop, error: drop, debug: drop, child: () => logger } as unknown as Logger;
  return logger;
}
