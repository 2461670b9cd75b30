// The app both telemetry entries serve: entries/telemetry.mjs on Node, Bun and Deno, and
// entries/telemetry-worker.mjs on workerd. One definition, so that every runtime is asked for the
// same spans: the conformance app's BooksController with OpenTelemetry's SDK registered as an
// application registers it (the W3C propagator) and every finished span printed as a
// `kiln-span {json}` line. What differs stays in the entries: the context manager each runtime
// can run, and a listening runtime's own options.
import * as api from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createServer } from '@kiln/core';
import { BooksController } from '../../../build/test/runtimes/conformance-app/books-controller.js';
import { GREETING } from '../../../build/test/runtimes/conformance-app/services.js';

const printed = {
  export(spans, done) {
    for (const span of spans) {
      const line = {
        name: span.name,
        kind: span.kind,
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        status: span.status.code,
        attributes: span.attributes,
        events: span.events.map((event) => event.name),
      };
      console.log(`kiln-span ${JSON.stringify(line)}`);
    }
    done({ code: 0 });
  },
  shutdown: async () => {},
};

/** An application middleware that starts a span of its own after a timer: nested under the server span only if the context crossed the await. */
const afterTimer = async (req) => {
  if (req.path !== '/books/1') return;
  await new Promise((resolve) => setTimeout(resolve, 2));
  api.trace.getTracer('app').startSpan('after a timer').end();
};

/** Registers the SDK globally with `contextManager` (enabled), then creates the traced app with `options` added. */
export function tracedBooksApp(contextManager, options = {}) {
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(printed)] }));
  api.context.setGlobalContextManager(contextManager);
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return createServer({
    controllers: [BooksController],
    middlewares: [afterTimer],
    injections: [{ token: GREETING, provide: 'traced' }],
    logger: { level: 'silent' },
    ...options,
    telemetry: { api },
  });
}
