import { cors, createServer, type ErrorsOption, type KilnServer, type MiddlewareFunction } from '@kiln/core';
import { BooksController } from './books-controller.js';
import { ConversionController } from './conversion-controller.js';
import { LimitedController } from './limited-controller.js';
import { CancellationController } from './cancellation-controller.js';
import { UploadsController } from './uploads-controller.js';
import { ConfigController } from './config-controller.js';
import { EventsController } from './events-controller.js';
import { SocketsController } from './sockets-controller.js';
import { GREETING } from './services.js';

/** An application middleware that wraps the response it gets from `next()`. */
const wrap: MiddlewareFunction = async (req, next) => {
  if (req.path === '/stop') return { stoppedBy: 'middleware' };
  const response = await next();
  response.headers.set('x-wrapped', 'yes');
  return response;
};

/** An application middleware that only records a header, without making a Response. */
const stamp: MiddlewareFunction = (req) => {
  req.setResponseHeader('x-stamp', req.method);
};

/**
 * The conformance app, in the mode asked for; `document` is the OpenAPI document its build
 * wrote, passed parsed so that a runtime without a file system serves it too. With `errors:
 * 'problem+json'` (strict, RFC 9457 problem details) it serves no document: the build wrote the
 * default error format's.
 */
export function createConformanceApp(strictValidation: boolean, document: object, errors: ErrorsOption = 'json'): KilnServer {
  return createServer({
    controllers: [
      ConversionController,
      BooksController,
      LimitedController,
      CancellationController,
      UploadsController,
      ConfigController,
      EventsController,
      SocketsController,
    ],
    middlewares: [cors({ origin: ['https://app.example'], credentials: true, exposedHeaders: ['x-stamp'] }), wrap, stamp],
    strictValidation,
    maxBodySize: 1024,
    maxHeaderSize: 8 * 1024,
    // A client that reads no event for 2 s is cut (test/runtimes/conformance.test.ts, server-sent events).
    sendTimeout: 2000,
    // test/runtimes/websocket.test.ts: a 2 KiB message is too large, a silent peer is cut within two seconds.
    webSocket: { maxMessageSize: 1024, pingInterval: 1000 },
    injections: [{ token: GREETING, provide: 'hello from the container' }],
    errors,
    ...(errors === 'json' ? { docs: { document, openapi: '/openapi.json' } } : {}),
  });
}
