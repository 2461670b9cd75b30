/**
 * How a store counts a window:
 * - `'sliding-log'` (default): the exact sliding window, one timestamp per counted request (memory
 *   per key grows with `max`);
 * - `'sliding-window-counter'`: two counts per key (the current and the previous fixed window),
 *   the previous one weighted by how much of it the sliding window still covers. O(1) memory per
 *   key whatever `max` is; an estimate whose error bound the rate-limiting guide derives.
 */
export type RateLimitAlgorithm = 'sliding-log' | 'sliding-window-counter';

/**
 * What `rateLimit` tells its store once, at creation: the window, the limit and how to count.
 */
export interface RateLimitStoreOptions {
  /** Window length in milliseconds. */
  readonly windowMs: number;
  /** Requests allowed per window; `Number.MAX_SAFE_INTEGER` when `max` is a function (each `hit` then carries the request's). */
  readonly max: number;
  /**
   * The counting method the limiter was given (`rateLimit({ algorithm })`); `undefined` means the
   * sliding log. A store that cannot count this way must throw from `init`.
   */
  readonly algorithm?: RateLimitAlgorithm;
  /**
   * `rateLimit({ blockDuration })` in ms, 0 (or absent) for none: once a hit is refused, the store
   * refuses every hit of that key, counting nothing, until `max(the refused hit's resetTime, now +
   * blockDuration)`, and reports that time as `resetTime`. A store that cannot block must throw
   * from `init` when this is above 0.
   */
  readonly blockDuration?: number;
  /**
   * `rateLimit({ skipSuccessfulRequests })`: the limiter takes successes back (`refund`), so a
   * key's count can fall before its window moves on. A store that remembers refusals must then
   * not answer a later request from them (RedisStore's block cache keeps only blocks).
   */
  readonly skipSuccessfulRequests?: boolean;
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
  /**
   * Takes this request's units back out of the window (only on a counted hit asked with
   * `refundable`). The middleware hands the successful response on only once it has returned, or
   * once its promise has settled, so the client's next request finds the units back: a store
   * answering over the network must settle it when the backend has applied it, and within a
   * bounded time (RedisStore: `timeoutMs`).
   */
  refund?: () => void | Promise<void>;
}

/**
 * What one request asks of `hit` when the limiter weighs requests (`cost`) or computes `max` per
 * request: the middleware passes it only then, so the default path allocates nothing.
 */
export interface RateLimitRequest {
  /** Units this request takes (a whole number ≥ 0). A cost of 0 is counted as nothing but refused once the key's quota is spent. */
  readonly cost: number;
  /** The limit for this request's key (a whole number ≥ 0), replacing the `max` given to `init`. */
  readonly max: number;
  /**
   * The limiter may take the request back (`skipSuccessfulRequests`): a counted request's hit then
   * carries `refund`. A store that cannot take a request back leaves it out (it then stays counted).
   */
  readonly refundable?: boolean;
}

/**
 * Counter storage for `rateLimit`. Only `increment` and `reset` are required (the
 * interface of express-rate-limit's stores); each may answer synchronously or with a promise, and the middleware awaits only
 * when it gets a promise.
 *
 * - `increment(key)` counts one request for `key` and returns the requests in the window, this
 *   one included; a count above `max` refuses the request. Called once per request that is not
 *   skipped.
 * - `reset(key)` forgets `key`. Never called by the middleware itself; `limiter.resetKey(key)`
 *   calls it (an admin route, a test).
 * - `resetAll()`, optional, forgets every key of this store; `limiter.resetAll()` calls it (and
 *   throws KILN206 when the store has none). The built-in stores have it.
 * - `init(options)`, optional, is called once by `rateLimit` when the store is handed to it; it
 *   must throw for an `options.algorithm` or an `options.blockDuration` it does not implement. A
 *   store without `init` can only serve the default sliding log, without blocks.
 * - `hit(key)`, optional, does what `increment` does and also says when the window frees a slot.
 *   When it is there the middleware calls it instead of `increment`, so `RateLimit-Reset` and
 *   `Retry-After` are exact; without it they are estimated as now + `windowMs`. With a `cost` or a
 *   `max` function the middleware calls `hit(key, { cost, max })`: the store must count `cost`
 *   units and compare with that `max` (a refused request reports a count above it and the time
 *   when it would pass). Such limiters need a store with `hit` (KILN207); both built-in stores
 *   honour it.
 *
 * @example
 * ```ts
 * // A typical store on a key-value server: INCR, then EXPIRE when the count is 1.
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
  resetAll?(): unknown;
  init?(options: RateLimitStoreOptions): void;
  hit?(key: string, request?: RateLimitRequest): RateLimitHit | Promise<RateLimitHit>;
}
