import type { TelemetrySpan } from './telemetry-options.js';
import { exceptionType, spanStatusError } from './http-semantic-conventions.js';

/** The ids a log line written during a traced request carries. */
export interface TraceFields {
  readonly trace_id: string;
  readonly span_id: string;
}

const invalidTraceId = '00000000000000000000000000000000';

/** A request's server span while it is answered: set on the request (`kRequestSpan`) only when telemetry is on. */
export class RequestSpan {
  readonly span: TelemetrySpan;
  /** `performance.now()` when the request was routed. */
  readonly started: number;
  /** `error.type`: the class of an unexpected exception, set when one is reported. */
  errorType: string | undefined = undefined;
  #fields: TraceFields | null | undefined;

  constructor(span: TelemetrySpan, started: number) {
    this.span = span;
    this.started = started;
  }

  /** An unexpected error of the request (the one `onError` gets): recorded on the span, which ends in ERROR. */
  exception(error: unknown): void {
    this.errorType ??= exceptionType(error);
    if (!this.span.isRecording()) return;
    this.span.recordException(error instanceof Error ? error : String(error));
    this.span.setStatus({ code: spanStatusError, message: error instanceof Error ? error.message : undefined });
  }

  /** `{ trace_id, span_id }`, or undefined when the span has no valid ids (no SDK and no incoming `traceparent`). */
  fields(): TraceFields | undefined {
    if (this.#fields === undefined) {
      const { traceId, spanId } = this.span.spanContext();
      this.#fields = traceId === invalidTraceId || traceId === '' ? null : { trace_id: traceId, span_id: spanId };
    }
    return this.#fields ?? undefined;
  }
}
