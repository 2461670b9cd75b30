// OpenTelemetry for the bookshop, loaded by main.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set
// (docs: guide/telemetry.md): the SDK registered as the API's global tracer provider, spans
// batched to an OTLP/HTTP collector, the context carried across `await` by AsyncLocalStorage, and
// the caller's W3C traceparent continued. Kiln itself only gets the API module.
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TelemetryOptions } from '@kiln/core';

export interface Tracing {
  /** `createServer`'s `telemetry` option. */
  readonly telemetry: TelemetryOptions;
  /** Sends the spans still batched, then stops. */
  shutdown(): Promise<void>;
}

/** Registers the SDK, exporting to `endpoint` (`http://collector:4318`: spans go to its `/v1/traces`). */
export function startTracing(endpoint: string): Tracing {
  const url = new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))] });
  api.trace.setGlobalTracerProvider(provider);
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return { telemetry: { api }, shutdown: () => provider.shutdown() };
}
