import { env, type EnvSource } from '@kiln/core';

/** The example's configuration, read from the environment at start-up (docs: guide/configuration.md). */
export interface ExampleConfig {
  /** Port to listen on; default 3000. */
  PORT?: number;
  /** Interface to listen on; default all. */
  HOST?: string;
  LOG_LEVEL?: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  /** KILN_DEBUG=1: the route table at start-up and every request's route decision. */
  KILN_DEBUG?: boolean;
  /** Milliseconds close() keeps serving, readiness answering 503, before it stops accepting. */
  DRAIN_DELAY_MS?: number;
  /** An OTLP/HTTP collector (`http://127.0.0.1:4318`): traces are sent there; unset, no tracing at all. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

/** The configuration, or one KILN051 error naming every variable that is malformed. */
export function readConfig(source?: EnvSource): ExampleConfig {
  return env<ExampleConfig>(source);
}
