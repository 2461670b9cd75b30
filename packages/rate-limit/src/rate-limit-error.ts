/**
 * Every error @kiln/rate-limit throws at start-up, by code (KILN2xx: the runtime's are KILN0xx,
 * the transformer's KILN1xx). The package README documents each code; a test checks it.
 */
export const rateLimitErrorCodes = {
  KILN201: 'a `rateLimit()` option has an invalid value',
  KILN202: 'a store was handed to a second `rateLimit()`',
  KILN203: 'a `MemoryStore` or `RedisStore` option has an invalid value',
  KILN204: 'a `RedisStore` got no client, or a client that is neither ioredis nor redis',
  KILN206: '`limiter.resetAll()` on a store without `resetAll()`, or a RedisStore client without SCAN/UNLINK',
  KILN207: 'a `cost`, a `max` function or `skipSuccessfulRequests` (or `penalize()`) with a store that has no `hit()`',
  KILN208: 'a `cost` function returned something other than a whole number ≥ 0 (a 500, per request)',
  KILN209: 'a `max` function returned something other than a whole number ≥ 0 (a 500, per request)',
  KILN210: '`blockDuration` is not a whole number of milliseconds ≥ 0',
  KILN211: '`blockDuration` with a store that has no `init()` and `hit()` to be told it and report the block',
  KILN212: 'a `RedisStore` `blockCache` option is neither a boolean nor `{ maxKeys }` with a whole number above 0',
  KILN213: 'a `DurableObjectStore` got no namespace binding, or an invalid `prefix`',
  KILN205: "`rateLimit({ trustProxy })` is deprecated: the server's `trustProxy` governs the default key (a warning, not an error)",
} as const;

export type RateLimitErrorCode = keyof typeof rateLimitErrorCodes;

/**
 * A mistake in how a limiter or a store is configured, thrown when it is created, never per request.
 *
 * @example
 * ```ts
 * try { rateLimit({ max: -1 }); } catch (error) { (error as RateLimitError).code; } // 'KILN201'
 * ```
 */
export class RateLimitError extends TypeError {
  override name = 'RateLimitError';
  constructor(
    readonly code: RateLimitErrorCode,
    message: string,
  ) {
    super(message);
  }
}
