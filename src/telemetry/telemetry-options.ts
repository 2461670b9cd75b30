// The part of `@opentelemetry/api` Kiln calls, written out here so that @kiln/core's types and
// runtime never import the package: an app without OpenTelemetry installed builds and runs as it is.
// The real module (`import * as api from '@opentelemetry/api'`) fits these shapes.

/** An OpenTelemetry `Context` (Kiln only hands it back to the API). */
export interface TelemetryContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): TelemetryContext;
  deleteValue(key: symbol): TelemetryContext;
}

/** The attribute values Kiln writes. */
export type TelemetryAttributes = Record<string, string | number | boolean | undefined>;

/** What Kiln reads of an OpenTelemetry `SpanContext`. */
export interface TelemetrySpanContext {
  readonly traceId: string;
  readonly spanId: string;
}

/** What Kiln calls on an OpenTelemetry `Span`. */
export interface TelemetrySpan {
  spanContext(): TelemetrySpanContext;
  isRecording(): boolean;
  setAttribute(key: string, value: string | number | boolean): unknown;
  setAttributes(attributes: TelemetryAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): unknown;
  end(): unknown;
}

/** An OpenTelemetry `Tracer` (`api.trace.getTracer(name)`). */
export interface TelemetryTracer {
  startSpan(name: string, options: { kind: number; attributes: TelemetryAttributes }, context: TelemetryContext): TelemetrySpan;
}

/** An OpenTelemetry `Histogram`. */
export interface TelemetryHistogram {
  record(value: number, attributes: TelemetryAttributes): void;
}

/** An OpenTelemetry `Meter` (`api.metrics.getMeter(name)`). */
export interface TelemetryMeter {
  createHistogram(
    name: string,
    options: { description: string; unit: string; advice: { explicitBucketBoundaries: number[] } },
  ): TelemetryHistogram;
}

/** How Kiln reads the incoming headers for the registered propagator. */
export interface TelemetryHeaderGetter {
  get(carrier: Headers, key: string): string | undefined;
  keys(carrier: Headers): string[];
}

/** The four entry points of `@opentelemetry/api` Kiln uses: pass the module itself. */
export interface OpenTelemetryApi {
  readonly trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    setSpan(context: TelemetryContext, span: TelemetrySpan): TelemetryContext;
  };
  readonly context: {
    active(): TelemetryContext;
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
      context: TelemetryContext,
      fn: F,
      thisArg?: ThisParameterType<F>,
      ...args: A
    ): ReturnType<F>;
  };
  readonly propagation: {
    extract(context: TelemetryContext, carrier: Headers, getter: TelemetryHeaderGetter): TelemetryContext;
    /** The headers the registered propagator reads: none without one. */
    fields(): string[];
  };
  readonly metrics: {
    getMeter(name: string, version?: string): TelemetryMeter;
  };
}

/**
 * `createServer({ telemetry })`: a server span and the `http.server.request.duration` histogram
 * for every routed request, through the OpenTelemetry API the app registered its SDK with
 * (docs: guide/telemetry.md). Off unless given.
 *
 * @example
 * ```ts
 * import * as api from '@opentelemetry/api';
 * createServer({ controllers, telemetry: { api } });
 * ```
 */
export interface TelemetryOptions {
  /** The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`). */
  api: OpenTelemetryApi;
  /** The tracer of the server spans, or false for no spans. Default `api.trace.getTracer('@kiln/core')`. */
  tracer?: TelemetryTracer | false;
  /** The meter of the duration histogram, or false for none. Default `api.metrics.getMeter('@kiln/core')`. */
  meter?: TelemetryMeter | false;
}
