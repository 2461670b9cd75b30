// Node, Bun and Deno: the conformance app's BooksController with OpenTelemetry's SDK registered
// as an application registers it (the AsyncLocalStorage context manager, the W3C propagator) and
// every finished span printed as a `kiln-span {json}` line; `health.drainDelay` keeps it serving
// for a while after SIGTERM starts close(). Run unbundled: each runtime resolves node_modules itself.
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
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
api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(printed)] }));
api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());

/** An application middleware that starts a span of its own after a timer: nested under the server span only if the context crossed the await. */
const afterTimer = async (req) => {
  if (req.path !== '/books/1') return;
  await new Promise((resolve) => setTimeout(resolve, 2));
  api.trace.getTracer('app').startSpan('after a timer').end();
};

const app = createServer({
  controllers: [BooksController],
  middlewares: [afterTimer],
  injections: [{ token: GREETING, provide: 'traced' }],
  logger: { level: 'silent' },
  health: { drainDelay: 60_000 },
  telemetry: { api },
});
const { port } = await app.listen(0, '127.0.0.1');
process.once('SIGTERM', () => {
  console.log('kiln-telemetry closing');
  void app.close();
});
console.log(`kiln-telemetry ${JSON.stringify({ port })}`);
