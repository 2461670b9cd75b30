import { createServer, requestLogger, type KilnServer, type LogLevel, type MiddlewareFunction } from '@kiln/core';
import { BooksController } from './books/books-controller.js';
import { MetaController } from './meta/meta-controller.js';

/** A functional middleware: times every request. */
const timing: MiddlewareFunction = async (_req, next) => {
  const started = performance.now();
  const response = await next();
  response.headers.set('server-timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
  return response;
};

export function createApp(): KilnServer {
  return createServer({
    controllers: [BooksController, MetaController],
    // One JSON line per request (pino when installed), with its X-Request-Id; first, so that it times the rest.
    middlewares: [requestLogger(), timing],
    logger: { level: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info' },
    // KILN_DEBUG=1: the route table at start-up and every request's route decision.
    debug: process.env.KILN_DEBUG === '1',
    strictValidation: true,
    // The OpenAPI document the build wrote (tsconfig.json: "openapi"), served with a docs page.
    docs: { document: new URL('../openapi.json', import.meta.url), openapi: '/openapi.json', ui: '/docs' },
  });
}
