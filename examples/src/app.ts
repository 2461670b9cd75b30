import { createServer, type KilnServer, type MiddlewareFunction } from '@kiln/core';
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
    middlewares: [timing],
    strictValidation: true,
    // The OpenAPI document the build wrote (tsconfig.json: "openapi"), served with a docs page.
    docs: { document: new URL('../openapi.json', import.meta.url), openapi: '/openapi.json', ui: '/docs' },
  });
}
