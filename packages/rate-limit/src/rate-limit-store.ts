/**
 * What `rateLimit` tells its store once, at creation: the window and the limit it enforces.
 */
export interface RateLimitStoreOptions {
  /** Window length in milliseconds. */
  readonly windowMs: number;
  /** Requests allowed per window. */
  readonly max: number;
}

/** The result of counting one request, for stores that know when their window frees a slot. */
export interface RateLimitHit {
  /**
   * Requests in the window, this one included. `0` means "not counted, let it through" (a store
   * that cannot reach its backend and fails open); the middleware then adds no headers.
   */
  count: number;
  /** Unix time in milliseconds when the oldest counted request leaves the window. */
  resetTime: number;
}

/**
 * Counter storage for `rateLimit`. Only `increment` and `reset` are required (the spec's
 * interface); each may answer synchronously or with a promise, and the middleware awaits only
 * when it gets a promise.
 *
 * - `increment(key)` counts one request for `key` and returns the requests in the window, this
 *   one included. Called once per request that is not skipped.
 * - `reset(key)` forgets `key`. Never called by the middleware; for your own code (an admin
 *   route, a test).
 * - `init(options)`, optional, is called once by `rateLimit` when the store is handed to it.
 * - `hit(key)`, optional, does what `increment` does and also says when the window frees a slot.
 *   When it is there the middleware calls it instead of `increment`, so `RateLimit-Reset` and
 *   `Retry-After` are exact; without it they are estimated as now + `windowMs`.
 *
 * @example
 * ```ts
 * // The spec's "typical" store on a key-value server: INCR, then EXPIRE when the count is 1.
 * const windowMs = 60_000;
 * const store: RateLimitStore = {
 *   async increment(key) {
 *     const count = await redis.incr(`rl:${key}`);
 *     if (count === 1) await redis.expire(`rl:${key}`, Math.ceil(windowMs / 1000));
 *     return count;
 *   },
 *   async reset(key) { await redis.del(`rl:${key}`); },
 * };
 * ```
 */
export interface RateLimitStore {
  increment(key: string): number | Promise<number>;
  reset(key: string): void | Promise<void>;
  init?(options: RateLimitStoreOptions): void;
  hit?(key: string): RateLimitHit | Promise<RateLimitHit>;
}
