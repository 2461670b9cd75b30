import {
  compression,
  createServer,
  requestLogger,
  secureHeaders,
  type DocsOptions,
  type KilnServer,
  type MiddlewareFunction,
  type TelemetryOptions,
} from '@kiln/core';
import type { ExampleConfig } from './config.js';
import { BooksController } from './books/books-controller.js';
import { MetaController } from './meta/meta-controller.js';
import { AccountController } from './account/account-controller.js';
import { OrdersController } from './account/orders-controller.js';
import { BookChangesController } from './books/book-changes-controller.js';
import { ChatController } from './chat/chat-controller.js';

/** A functional middleware: times every request. */
const timing: MiddlewareFunction = async (_req, next) => {
  const started = performance.now();
  const response = await next();
  response.headers.set('server-timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
  return response;
};

/**
 * `docs`: the OpenAPI document the build wrote (tsconfig.json: "openapi"), served with a docs page;
 * a Worker, which has no files to read, passes the document itself (worker/worker.ts).
 * `telemetry`: OpenTelemetry, when main.ts registered the SDK (tracing.ts); none otherwise.
 */
export function createApp(docs?: DocsOptions, config: ExampleConfig = {}, telemetry?: TelemetryOptions): KilnServer {
  return createServer({
    controllers: [BooksController, BookChangesController, MetaController, AccountController, OrdersController, ChatController],
    // One JSON line per request (pino when installed), with its X-Request-Id; first, so that it times the rest.
    // compression() last: the answer is compressed when it is sent, after every middleware saw it.
    // The catalogue's answers are small: compressed from 256 bytes on (the default threshold is 1 KiB).
    // secureHeaders() right after it: every answer, a 404 or an error included, carries its headers.
    middlewares: [requestLogger(), secureHeaders(), timing, compression({ threshold: 256 })],
    logger: { level: config.LOG_LEVEL ?? 'info' },
    // KILN_DEBUG=1: the route table at start-up and every request's route decision.
    debug: config.KILN_DEBUG === true,
    // /livez and /readyz for a load balancer; readiness answers 503 as soon as close() starts (docs: guide/health.md).
    health: { drainDelay: config.DRAIN_DELAY_MS ?? 0 },
    // Cover uploads: at most 2 MiB a file, one file a request.
    uploads: { maxFileSize: 2 * 1024 * 1024, maxFiles: 1 },
    strictValidation: true,
    docs: docs ?? { document: new URL('../openapi.json', import.meta.url), openapi: '/openapi.json', ui: '/docs' },
    // A server span per request (GET /books/:id) and its duration, with the trace ids on the log lines.
    telemetry,
  });
}
