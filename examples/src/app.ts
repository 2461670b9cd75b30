import { compression, createServer, type KilnServer, type MiddlewareFunction } from '@kiln/core';
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
    // compression() after timing: the timing header is set on the uncompressed answer, then it is compressed when sent.
    // The catalogue's answers are small: compressed from 256 bytes on (the default threshold is 1 KiB).
    middlewares: [timing, compression({ threshold: 256 })],
    // Cover uploads: at most 2 MiB a file, one file a request.
    uploads: { maxFileSize: 2 * 1024 * 1024, maxFiles: 1 },
    strictValidation: true,
    // The OpenAPI document the build wrote (tsconfig.json: "openapi"), served with a docs page.
    docs: { document: new URL('../openapi.json', import.meta.url), openapi: '/openapi.json', ui: '/docs' },
  });
}
