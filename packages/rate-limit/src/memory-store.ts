import type { RateLimitHit, RateLimitStore, RateLimitStoreOptions } from './rate-limit-store.js';
import { SlidingLog } from './sliding-log.js';
import { RateLimitError } from './rate-limit-error.js';

export interface MemoryStoreOptions {
  /** Most keys held; past it the least recently used 20% are evicted. Default 10 000. */
  maxKeys?: number;
  /** How often keys idle for a whole window are dropped, in ms. Default 60 000. The timer never keeps the process alive. */
  cleanupIntervalMs?: number;
}

const evictedShare = 0.2;

/**
 * The default store: a sliding log of timestamps per key, in this process only (counters are
 * lost on restart, and each process of a cluster counts on its own; use `RedisStore` to share).
 *
 * - `increment` is synchronous, so the middleware never allocates a promise for it.
 * - Only counted requests are logged: a refused request is answered but not recorded, so a key
 *   holds at most `max` timestamps and a client that waits for `Retry-After` gets through.
 * - The key map is kept in least-recently-used order (a key is re-inserted when touched). When a
 *   new key would pass `maxKeys`, keys idle for a whole window are dropped, then, if still full,
 *   the oldest 20%: both walk from the front, in time proportional to what they remove.
 *
 * @example
 * ```ts
 * const store = new MemoryStore({ maxKeys: 50_000 });
 * createServer({ controllers, middlewares: [rateLimit({ max: 100, windowMs: 60_000, store })] });
 * ```
 */
export class MemoryStore implements RateLimitStore {
  #logs = new Map<string, SlidingLog>();
  /** The most recently touched log: touching it again needs no re-insertion. */
  #newest: SlidingLog | undefined;
  #windowMs = 60_000;
  #max = Number.POSITIVE_INFINITY;
  #initialised = false;
  readonly #maxKeys: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #cleanupIntervalMs: number;

  constructor(options: MemoryStoreOptions = {}) {
    const maxKeys = options.maxKeys ?? 10_000;
    const interval = options.cleanupIntervalMs ?? 60_000;
    if (!Number.isInteger(maxKeys) || maxKeys < 1)
      throw new RateLimitError('KILN203', `MemoryStore maxKeys must be a whole number above 0, got ${maxKeys}`);
    if (!(interval > 0) || !Number.isFinite(interval))
      throw new RateLimitError('KILN203', `MemoryStore cleanupIntervalMs must be a positive number, got ${interval}`);
    this.#maxKeys = maxKeys;
    this.#cleanupIntervalMs = interval;
  }

  /**
   * The cleanup timer starts with the first counted request, not in the constructor: a Worker
   * creates its stores in the module's global scope, where workerd refuses to set a timer.
   */
  #startCleanup(): void {
    this.#timer = setInterval(() => this.#dropIdle(Date.now()), this.#cleanupIntervalMs);
    // Node and Bun: never keep the process alive for it (workerd's timers have no unref).
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Called by `rateLimit`. A store serves one limiter: a second `init` throws. */
  init(options: RateLimitStoreOptions): void {
    if (this.#initialised) {
      throw new RateLimitError(
        'KILN202',
        'This MemoryStore already serves another rateLimit(); give each rateLimit() its own store (one rateLimit() may be reused on several routes)',
      );
    }
    this.#initialised = true;
    this.#windowMs = options.windowMs;
    this.#max = options.max;
  }

  /** Counts a request for `key`; returns the requests in the window, this one included. */
  increment(key: string): number {
    const now = Date.now();
    return this.#count(this.#touch(key, now), now);
  }

  /** `increment` plus the time (ms) when the oldest counted request leaves the window. */
  hit(key: string): RateLimitHit {
    const now = Date.now();
    const log = this.#touch(key, now);
    const count = this.#count(log, now);
    const resetTime = log.times.length > log.head ? log.oldest() + this.#windowMs : now + this.#windowMs;
    return { count, resetTime };
  }

  reset(key: string): void {
    this.#logs.delete(key);
  }

  /** Number of keys held. */
  get size(): number {
    return this.#logs.size;
  }

  /** Stops the cleanup timer and forgets every key. */
  close(): void {
    clearInterval(this.#timer);
    this.#logs.clear();
    this.#newest = undefined;
  }

  // hot path: one Map lookup, plus a delete + set only when another key was touched in between
  #touch(key: string, now: number): SlidingLog {
    const logs = this.#logs;
    let log = logs.get(key);
    if (log === undefined) {
      if (this.#timer === undefined) this.#startCleanup();
      if (logs.size >= this.#maxKeys) this.#makeRoom(now);
      log = new SlidingLog();
      logs.set(key, log);
    } else if (log !== this.#newest) {
      // A Map iterates in insertion order: re-inserting keeps it in least-recently-used order.
      logs.delete(key);
      logs.set(key, log);
    }
    this.#newest = log;
    log.touched = now;
    return log;
  }

  // hot path
  #count(log: SlidingLog, now: number): number {
    const live = log.expire(now - this.#windowMs);
    if (live >= this.#max) return live + 1; // refused: answered, not recorded
    log.times.push(now);
    return live + 1;
  }

  /** Drops keys untouched for a whole window. Touch order is monotone, so it stops at the first live key. */
  #dropIdle(now: number): void {
    const cutoff = now - this.#windowMs;
    for (const [key, log] of this.#logs) {
      if (log.touched > cutoff) break;
      this.#logs.delete(key);
    }
  }

  #makeRoom(now: number): void {
    this.#dropIdle(now);
    if (this.#logs.size < this.#maxKeys) return;
    let evict = Math.ceil(this.#maxKeys * evictedShare);
    for (const key of this.#logs.keys()) {
      if (evict-- === 0) break;
      this.#logs.delete(key);
    }
  }
}
