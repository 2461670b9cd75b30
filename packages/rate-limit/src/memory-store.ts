import type { RateLimitHit, RateLimitRequest, RateLimitStore, RateLimitStoreOptions } from './rate-limit-store.js';
import { SlidingLog } from './sliding-log.js';
import { countRequest, fits, nextPassAt, rollWindow, estimatedCount, roomNeeded, type WindowCounts } from './sliding-window-counter.js';
import { RateLimitError } from './rate-limit-error.js';

/**
 * What a full `MemoryStore` does with a new key when every key it holds is at or over its limit
 * (nothing can be evicted without letting a limited client through):
 * - `'refuse'` (default): the new key is refused (429, `Retry-After` = when a held key's window
 *   frees room) and not stored; so is a held key's request that would need a new timestamp. A
 *   flood can then lock out new clients, never let a limited one in.
 * - `'evict-oldest'`: the least recently used key is evicted, limited or not, and the new key is
 *   counted. New clients are always served; a limited client can be reset by a flood.
 */
export type MemoryStoreOverflow = 'refuse' | 'evict-oldest';

export interface MemoryStoreOptions {
  /**
   * Memory budget of the store in bytes, as the store estimates it (keys, their map entries and
   * their counters; measured against the V8 heap in the package's tests). When a new key would
   * pass it, idle keys are dropped, then under-limit keys are evicted (fewest requests first) down
   * to 80% of it; a key at or over its limit is never evicted. Default 32 MiB: about 75,000 keys
   * of the sliding log holding a request or two each (a timestamp costs 12 bytes more), or 130,000
   * with the counter, for keys of about 20 characters.
   */
  maxBytes?: number;
  /** Most keys held, on top of `maxBytes` (same eviction rules). Default: no cap but `maxBytes`. */
  maxKeys?: number;
  /** What a full store does with a new key when every key held is limited. Default `'refuse'`. */
  overflow?: MemoryStoreOverflow;
  /** How often keys idle for a whole window are dropped, in ms. Default 60 000. The timer never keeps the process alive. */
  cleanupIntervalMs?: number;
}

/** The counts of one key under `sliding-window-counter`: O(1) memory whatever `max` is. */
class WindowCounter implements WindowCounts {
  window = 0;
  previous = 0;
  current = 0;
  /** When this key was last counted or refused. */
  touched = 0;
  /** The max its last request was held to (a `max` function may give each key its own). */
  limit = 0;
  /** `blockDuration`: until when (ms) every request of this key is refused. */
  blockedUntil = 0;
}

type Entry = SlidingLog | WindowCounter;

/** Estimated heap bytes of a key beyond its string (its map slot with a share of the table's slack, its entry object). Measured on V8. */
const entryOverhead = 190;
/** A sliding log's array with the room V8 gives it at its first push. */
const logOverhead = 170;
/** A key string: its header plus, conservatively, two bytes a character. */
const keyBytes = (key: string) => 24 + 2 * key.length;
/** A timestamp in a sliding log (a double), with the array's growth slack. */
const timestampBytes = 12;
/** What a key costs besides its string and timestamps, by algorithm (a new log is counted with its first timestamp). */
const counterKeyBytes = entryOverhead;
const logKeyBytes = entryOverhead + logOverhead + timestampBytes;
/** What a key costs besides its timestamps. */
const entryBytes = (key: string, entry: Entry) => entryOverhead + keyBytes(key) + (entry instanceof SlidingLog ? logOverhead : 0);
/** What `#count` returns for a request refused because the store is full of limited keys. */
const overflowed = -1;
/** A full store is emptied down to this share of its budget, so eviction scans are amortised. */
const refillShare = 0.8;

/**
 * The default store: the counters of each key in this process only (lost on restart; each process
 * of a cluster counts on its own, use `RedisStore` to share).
 *
 * - `increment` and `hit` are synchronous, so the middleware never allocates a promise for them.
 * - Only counted requests are recorded: a refused request is answered but not recorded, so a
 *   client that waits for `Retry-After` gets through.
 * - Memory is bounded by `maxBytes` (an estimate, 32 MiB by default) and optionally `maxKeys`.
 *   When a new key would pass them: keys idle for a whole window are dropped; then under-limit
 *   keys are evicted, those with the fewest requests in their window first and the least recently
 *   used first among equals, until 20% of the budget is free. **A key at or over its limit is never
 *   evicted before its window ends**, so a flood of fresh keys cannot reset a limited client; when
 *   only limited keys remain, a new key is answered as `overflow` says (refused by default).
 *   Evicting an under-limit key forgets what it counted: to push out a key holding `n` requests
 *   a flood must fill the whole budget with keys holding `n` or more.
 *
 * @example
 * ```ts
 * const store = new MemoryStore({ maxBytes: 64 * 1024 * 1024 });
 * createServer({ controllers, middlewares: [rateLimit({ max: 100, windowMs: 60_000, store })] });
 * ```
 */
export class MemoryStore implements RateLimitStore {
  /** Key → counters, in least-recently-used order (a Map iterates in insertion order; a touched key is re-inserted). */
  #entries = new Map<string, Entry>();
  /** The most recently touched entry: touching it again needs no re-insertion. */
  #newest: Entry | undefined;
  #windowMs = 60_000;
  #max = Number.POSITIVE_INFINITY;
  #counter = false;
  /** `rateLimit({ blockDuration })`, 0 for none. */
  #blockMs = 0;
  #initialised = false;
  readonly #maxBytes: number;
  readonly #maxKeys: number;
  readonly #evictOldest: boolean;
  /** Estimated bytes held (see the constants above). */
  #bytes = 0;
  /** Full of limited keys: until this time (ms) a new key gets the overflow answer without another scan. */
  #blockedUntil = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #cleanupIntervalMs: number;

  constructor(options: MemoryStoreOptions = {}) {
    const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    const maxKeys = options.maxKeys ?? Number.POSITIVE_INFINITY;
    const interval = options.cleanupIntervalMs ?? 60_000;
    const overflow = options.overflow ?? 'refuse';
    if (!Number.isInteger(maxBytes) || maxBytes < 4096)
      throw new RateLimitError('KILN203', `MemoryStore maxBytes must be a whole number of bytes, at least 4096, got ${maxBytes}`);
    if (maxKeys !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxKeys) || maxKeys < 1))
      throw new RateLimitError('KILN203', `MemoryStore maxKeys must be a whole number above 0, got ${maxKeys}`);
    if (!(interval > 0) || !Number.isFinite(interval))
      throw new RateLimitError('KILN203', `MemoryStore cleanupIntervalMs must be a positive number, got ${interval}`);
    if (overflow !== 'refuse' && overflow !== 'evict-oldest')
      throw new RateLimitError('KILN203', `MemoryStore overflow must be 'refuse' or 'evict-oldest', got ${JSON.stringify(overflow)}`);
    this.#maxBytes = maxBytes;
    this.#maxKeys = maxKeys;
    this.#evictOldest = overflow === 'evict-oldest';
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
    this.#counter = options.algorithm === 'sliding-window-counter';
    this.#blockMs = options.blockDuration ?? 0;
  }

  /** Counts a request for `key`; returns the requests in the window, this one included (`max + 1`: refused). */
  increment(key: string): number {
    return this.hit(key).count;
  }

  /**
   * `increment` plus the time (ms) when a slot frees: when the request would pass, for a refused
   * one. `request` (from a limiter with `cost` or a `max` function) weighs it and sets its limit.
   */
  hit(key: string, request?: RateLimitRequest): RateLimitHit {
    const now = Date.now();
    const max = request === undefined ? this.#max : request.max;
    const cost = request === undefined ? 1 : request.cost;
    const entry = this.#touch(key, now);
    if (entry === undefined) return { count: max + 1, resetTime: this.#blockedUntil };
    entry.limit = max;
    if (entry.blockedUntil > now) return { count: max + 1, resetTime: entry.blockedUntil };
    if (this.#counter) {
      const counter = entry as WindowCounter;
      const hit = countRequest(counter, now, this.#windowMs, max, cost);
      if (hit.count > max) return this.#refused(counter, hit.count, hit.resetTime, now);
      if (request?.refundable && cost > 0) hit.refund = () => this.#refundCounter(key, counter, now, cost);
      return hit;
    }
    const log = entry as SlidingLog;
    const count = this.#count(log, now, max, cost);
    if (count === overflowed) return { count: max + 1, resetTime: this.#blockedUntil };
    if (count > max) return this.#refused(log, count, this.#passAt(log, now, max, cost), now);
    const resetTime = log.times.length > log.head ? log.oldest() + this.#windowMs : now + this.#windowMs;
    if (request?.refundable && cost > 0) return { count, resetTime, refund: () => this.#refundLog(key, log, now, cost) };
    return { count, resetTime };
  }

  /** A refused request: with `blockDuration`, the key is blocked from now (a block never ends before the window would let it in). */
  #refused(entry: Entry, count: number, passAt: number, now: number): RateLimitHit {
    if (this.#blockMs === 0) return { count, resetTime: passAt };
    entry.blockedUntil = Math.max(passAt, now + this.#blockMs);
    return { count, resetTime: entry.blockedUntil };
  }

  /** Takes back `cost` timestamps recorded at `at` (still in the window: the latest ones with that time). */
  #refundLog(key: string, log: SlidingLog, at: number, cost: number): void {
    if (this.#entries.get(key) !== log) return; // reset or evicted since: nothing of it is held
    const times = log.times;
    let removed = 0;
    for (let i = times.length - 1; i >= log.head && removed < cost; i--) {
      if (times[i] === at) {
        times.splice(i, 1);
        removed++;
      } else if (times[i]! < at) break;
    }
    this.#bytes -= removed * timestampBytes;
  }

  /** Takes back `cost` counted at `at`: from the current count, or the previous one if the window has moved on since. */
  #refundCounter(key: string, counter: WindowCounter, at: number, cost: number): void {
    if (this.#entries.get(key) !== counter) return;
    const window = Math.floor(at / this.#windowMs);
    if (counter.window === window) counter.current = Math.max(0, counter.current - cost);
    else if (counter.window === window + 1) counter.previous = Math.max(0, counter.previous - cost);
  }

  /** When a refused request of `cost` would pass: once enough of the oldest timestamps leave (never when `cost` exceeds `max`: a window from now). */
  #passAt(log: SlidingLog, now: number, max: number, cost: number): number {
    const live = log.times.length - log.head;
    const leaving = live + roomNeeded(cost) - max;
    if (leaving > live) return now + this.#windowMs;
    return log.times[log.head + leaving - 1]! + this.#windowMs;
  }

  /** Forgets `key`. */
  reset(key: string): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined) this.#forget(key, entry);
  }

  /** Forgets every key (e.g. between tests, or per app when one store is shared). */
  resetAll(): void {
    this.#entries.clear();
    this.#newest = undefined;
    this.#bytes = 0;
    this.#blockedUntil = 0;
  }

  /** Number of keys held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Estimated bytes held, the figure `maxBytes` bounds. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Stops the cleanup timer and forgets every key. */
  close(): void {
    clearInterval(this.#timer);
    this.resetAll();
  }

  // hot path: one Map lookup, plus a delete + set only when another key was touched in between
  #touch(key: string, now: number): Entry | undefined {
    const entries = this.#entries;
    let entry = entries.get(key);
    if (entry === undefined) {
      if (this.#timer === undefined) this.#startCleanup();
      const cost = (this.#counter ? counterKeyBytes : logKeyBytes) + keyBytes(key);
      if (this.#full(cost) && !this.#makeRoom(now, cost)) {
        if (!this.#evictOldest) return undefined;
        this.#evictUntilWithin(cost);
      }
      entry = this.#counter ? new WindowCounter() : new SlidingLog();
      entries.set(key, entry);
      this.#bytes += entryBytes(key, entry);
    } else if (entry !== this.#newest) {
      entries.delete(key);
      entries.set(key, entry);
    }
    this.#newest = entry;
    entry.touched = now;
    return entry;
  }

  // hot path
  #count(log: SlidingLog, now: number, max: number, cost: number): number {
    const length = log.times.length;
    const live = log.expire(now - this.#windowMs);
    const need = roomNeeded(cost);
    if (live + need > max) {
      this.#bytes += (log.times.length - length) * timestampBytes;
      return Math.max(live + need, max + 1); // refused: answered, not recorded
    }
    for (let i = 0; i < cost; i++) log.times.push(now);
    this.#bytes += (log.times.length - length) * timestampBytes;
    // A log that grows past the budget makes room as a new key would. When only limited keys are
    // left, the timestamp is taken back and the request gets the overflow answer: memory stays
    // within maxBytes, and nothing counted is forgotten.
    if (this.#bytes > this.#maxBytes && !this.#makeRoom(now, 0)) {
      if (this.#evictOldest) this.#evictUntilWithin(0);
      else {
        log.times.length -= cost;
        this.#bytes -= cost * timestampBytes;
        return overflowed;
      }
    }
    return live + cost;
  }

  /** `overflow: 'evict-oldest'`: evicts from the least recently used end until `cost` more bytes (a new key: one more key) fit. */
  #evictUntilWithin(cost: number): void {
    for (const [key, entry] of this.#entries) {
      if (!this.#full(cost)) return;
      this.#forget(key, entry);
    }
  }

  /** Whether a new key costing `cost` bytes (0: none) would pass `maxBytes` or `maxKeys`. */
  #full(cost: number): boolean {
    return this.#bytes + cost > this.#maxBytes || (cost > 0 && this.#entries.size >= this.#maxKeys);
  }

  #forget(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entryBytes(key, entry) + (entry instanceof SlidingLog ? entry.times.length * timestampBytes : 0);
    if (entry === this.#newest) this.#newest = undefined;
  }

  /** Drops keys untouched for a whole window, but not a blocked one. Touch order is monotone, so it stops at the first live key. */
  #dropIdle(now: number): void {
    const cutoff = now - this.#windowMs;
    for (const [key, entry] of this.#entries) {
      if (entry.touched > cutoff) break;
      if (entry.blockedUntil > now) continue;
      this.#forget(key, entry);
    }
  }

  /** The requests `entry` holds in its window now, and whether its next request would be refused. */
  #load(entry: Entry, now: number): { requests: number; limited: boolean } {
    if (entry.blockedUntil > now) return { requests: entry.limit + 1, limited: true };
    if (entry instanceof SlidingLog) {
      const length = entry.times.length;
      const requests = entry.expire(now - this.#windowMs);
      this.#bytes += (entry.times.length - length) * timestampBytes;
      return { requests, limited: requests >= entry.limit };
    }
    const elapsed = rollWindow(entry, now, this.#windowMs);
    return {
      requests: estimatedCount(entry.previous, entry.current, elapsed, this.#windowMs),
      limited: !fits(entry.previous, entry.current, elapsed, this.#windowMs, entry.limit),
    };
  }

  /** When a limited `entry` would count a request again. */
  #freeAt(entry: Entry, now: number): number {
    if (entry.blockedUntil > now) return entry.blockedUntil;
    if (entry instanceof SlidingLog) {
      const live = entry.times.length - entry.head;
      // the (live - max + 1)th oldest leaving brings it under max
      const index = entry.head + Math.max(0, live - entry.limit);
      return index < entry.times.length ? entry.times[index]! + this.#windowMs : now;
    }
    const elapsed = now - entry.window * this.#windowMs;
    return nextPassAt(entry, now - elapsed, now, this.#windowMs, entry.limit - 1);
  }

  /**
   * Frees room for new keys; false when only limited keys remain (then new keys get the overflow
   * answer until one of them frees, without scanning again before then).
   */
  #makeRoom(now: number, cost: number): boolean {
    this.#dropIdle(now);
    if (!this.#full(cost)) return true;
    if (now < this.#blockedUntil) return false;
    // Evictable: under-limit keys, fewest requests first, least recently used first among equals
    // (the sort is stable and the map is in LRU order).
    const evictable: { key: string; entry: Entry; requests: number }[] = [];
    let freeAt = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.#entries) {
      const { requests, limited } = this.#load(entry, now);
      if (limited) freeAt = Math.min(freeAt, this.#freeAt(entry, now));
      else evictable.push({ key, entry, requests });
    }
    evictable.sort((a, b) => a.requests - b.requests);
    const bytesTarget = this.#maxBytes * refillShare;
    const keysTarget = Math.floor(this.#maxKeys * refillShare);
    for (const { key, entry } of evictable) {
      if (this.#bytes <= bytesTarget && this.#entries.size <= keysTarget) break;
      this.#forget(key, entry);
    }
    if (!this.#full(cost)) return true;
    // Only limited keys left: a scan is O(keys), so do not repeat it for every new key of a flood.
    this.#blockedUntil = Math.max(freeAt, now + Math.min(this.#windowMs, 1000));
    return false;
  }
}
