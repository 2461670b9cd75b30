// The HTTP benchmark's Kiln app (routes (a)–(c), as bench/http/servers/kiln/app.ts builds it) with
// OpenTelemetry in one of three modes, for bench/profile/interleaved.mjs:
//   off     no `telemetry` option (the request path never looks at telemetry)
//   noop    `telemetry: { api }` with no SDK registered: the API's no-op tracer and meter
//   sdk     the SDK as a production app registers it: a tracer provider with the BatchSpanProcessor,
//           the AsyncLocalStorage context manager, the W3C propagator and a meter provider; the
//           exporters drop what they get (what is measured is Kiln and the SDK, not a collector)
// Usage: node traced-server.mjs <port> <off|noop|sdk>   (needs `npm run build` and the bench build);
// tracing-off.mjs, tracing-noop.mjs and tracing-sdk.mjs are the three modes for interleaved.mjs,
// which passes a port only:
//   node bench/profile/interleaved.mjs b 40 off=bench/telemetry/tracing-off.mjs \
//     noop=bench/telemetry/tracing-noop.mjs sdk=bench/telemetry/tracing-sdk.mjs
import * as api from '@opentelemetry/api';
import { createServer } from '@kiln/core';
import { HelloController, MixedController, UsersController } from '../build/kiln/http/servers/kiln/users-controller.js';

const port = Number(process.argv[2]);
const mode = process.argv[3] ?? process.env.KILN_BENCH_TRACING;
if (!['off', 'noop', 'sdk'].includes(mode)) throw new Error('usage: traced-server.mjs <port> <off|noop|sdk>');

if (mode === 'sdk') {
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider, PeriodicExportingMetricReader, AggregationTemporality } = await import('@opentelemetry/sdk-metrics');
  const dropSpans = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] }));
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const dropMetrics = {
    export: (_metrics, done) => done({ code: 0 }),
    forceFlush: async () => {},
    shutdown: async () => {},
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  };
  const reader = new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 10_000 });
  api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
}

// The same configuration as createKilnApp(): strictValidation on, no middleware.
const app = createServer({
  controllers: [HelloController, UsersController, MixedController],
  strictValidation: true,
  telemetry: mode === 'off' ? undefined : { api },
});
await app.listen(port, '127.0.0.1');
