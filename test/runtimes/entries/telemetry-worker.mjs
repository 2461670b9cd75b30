// workerd: the conformance app's BooksController with OpenTelemetry's SDK, as entries/telemetry.mjs
// on the listening runtimes, bundled by esbuild (platform browser: the SDK's browser builds) and
// served as a Worker's `fetch`. The context manager is a few lines over `AsyncLocalStorage`, which
// workerd gives with nodejs_compat (the SDK's own context-async-hooks package is CommonJS for Node).
import * as api from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer } from '@kiln/core';
import { BooksController } from '../../../build/test/runtimes/conformance-app/books-controller.js';
import { GREETING } from '../../../build/test/runtimes/conformance-app/services.js';

/** OpenTelemetry's ContextManager over AsyncLocalStorage. */
class AsyncLocalStorageContext {
  #storage = new AsyncLocalStorage();
  active() {
    return this.#storage.getStore() ?? api.ROOT_CONTEXT;
  }
  with(context, fn, thisArg, ...args) {
    return this.#storage.run(context, () => fn.call(thisArg, ...args));
  }
  bind(context, target) {
    return typeof target === 'function' ? (...args) => this.with(context, target, undefined, ...args) : target;
  }
  enable() {
    return this;
  }
  disable() {
    this.#storage.disable();
    return this;
  }
}

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
api.context.setGlobalContextManager(new AsyncLocalStorageContext());
api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
/** A span started after a timer: nested under the server span only if the context crossed the await. */
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
  telemetry: { api },
});
export default { fetch: app.fetch };
