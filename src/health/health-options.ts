/** One readiness check: `check` resolves (or returns) when the dependency is usable. */
export interface HealthCheck {
  /**
   * Throws, rejects or returns `false` when the dependency is not usable. Gets a signal aborted
   * when `timeout` passes, to give to whatever it calls (a `fetch`, a Redis command).
   */
  check(signal: AbortSignal): unknown;
  /** Milliseconds the check may take before it counts as failed. Default 2 000. */
  timeout?: number;
}

/**
 * `createServer({ health })`: liveness and readiness endpoints for a load balancer or an
 * orchestrator (docs: guide/health.md).
 *
 * @example
 * ```ts
 * createServer({
 *   controllers,
 *   health: { checks: { redis: { check: () => redis.ping(), timeout: 500 } }, interval: 5_000, drainDelay: 5_000 },
 * });
 * ```
 */
export interface HealthOptions {
  /** Path of the liveness endpoint (200 while the process serves), or false for none. Default `/livez`. */
  liveness?: string | false;
  /** Path of the readiness endpoint (503 while closing or while a check fails), or false for none. Default `/readyz`. */
  readiness?: string | false;
  /** The readiness checks, by name: a `HealthCheck` or just its `check` function. Default none. */
  checks?: Record<string, HealthCheck | HealthCheck['check']>;
  /** Milliseconds a checks' result is reused: they run at most once per interval, whatever the request rate. Default 5 000. */
  interval?: number;
  /**
   * Milliseconds `close()` keeps serving, readiness answering 503, before it stops accepting
   * connections: the time a load balancer needs to see the 503 and stop sending. Default 0.
   */
  drainDelay?: number;
  /** Run the application middlewares (the rate limiter, `requestLogger()`, CORS) for the endpoints too. Default false. */
  middlewares?: boolean;
  /** Describe the endpoints in the served OpenAPI document (`docs`). Default false. */
  openapi?: boolean;
}
