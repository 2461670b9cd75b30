/** One refusal remembered: until when, and for which requests it holds. */
interface CachedRefusal {
  /** Unix ms (local clock) when the key may pass again. */
  until: number;
  /** The room the refused request needed (0: every request, a block). */
  need: number;
  /** The max it was held to (Infinity: every max, a block). */
  max: number;
}

/**
 * The refusals a `RedisStore` got from Redis, kept in this process so that a key Redis refused is
 * answered 429 locally, without a round trip, until its refusal ends. Only ever refuses what Redis
 * would refuse too, with the same `Retry-After`: counts in a window only fall as time passes, so a
 * request needing the room of a refused one, under the same max, cannot pass before the refused
 * one could; a block (`blockDuration`) holds every request of its key. Other processes keep
 * counting in Redis.
 * What it cannot know: a `resetKey` made by another process (this one's own `resetKey` clears it).
 *
 * Bounded: at most `maxKeys` entries; when full, expired ones are dropped and then the oldest.
 * Dropping one costs a round trip, never a wrong answer.
 */
export class BlockCache {
  readonly #entries = new Map<string, CachedRefusal>();
  readonly #maxKeys: number;

  constructor(maxKeys: number) {
    this.#maxKeys = maxKeys;
  }

  /**
   * When the cached refusal of `key` ends, for a request needing `need` units (its cost, at least
   * 1) under `max`; undefined when Redis must be asked. A refusal answers requests of its own need
   * and max only (a costlier one would pass later, and its `Retry-After` must say when), a block
   * every request. Hot path: one Map lookup.
   */
  refusedUntil(key: string, need: number, max: number, now: number): number | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    if (entry.need === 0 || (need === entry.need && max === entry.max)) return entry.until;
    return undefined;
  }

  /** Remembers a refusal Redis answered: for requests needing `need` or more under `max` or less (a block: `need` 0, `max` Infinity). */
  remember(key: string, until: number, need: number, max: number, now: number): void {
    const entries = this.#entries;
    if (!entries.has(key) && entries.size >= this.#maxKeys) this.#makeRoom(now);
    entries.set(key, { until, need, max });
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drops expired entries, then the oldest (insertion order) down to 90%, so a flood of new keys scans once per tenth of the cache. */
  #makeRoom(now: number): void {
    const entries = this.#entries;
    for (const [key, entry] of entries) if (entry.until <= now) entries.delete(key);
    const target = Math.floor(this.#maxKeys * 0.9);
    for (const key of entries.keys()) {
      if (entries.size <= target) return;
      entries.delete(key);
    }
  }
}
