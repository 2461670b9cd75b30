import { randomBytes } from 'node:crypto';
import { scriptRunner, type RedisClientLike, type ScriptRunner } from './redis-client.js';
import type { RateLimitHit, RateLimitStore, RateLimitStoreOptions } from './rate-limit-store.js';
import { slidingWindowScript, slidingWindowSha } from './sliding-window-script.js';
import { RateLimitError } from './rate-limit-error.js';

export interface RedisStoreOptions {
  /** A connected (or connecting) `ioredis` or `redis` client. The application owns it and closes it. */
  client: RedisClientLike;
  /** Prefix of every Redis key. Default `'kiln-rl:'`. Give each `rateLimit()` sharing a Redis its own. */
  prefix?: string;
  /**
   * What to do when Redis does not answer within `timeoutMs` or answers with an error: `true`
   * lets the request through uncounted and without rate-limit headers; `false` refuses it with
   * the 429 of the limiter. Default `true`: a Redis outage must not become an outage of the API.
   */
  failOpen?: boolean;
  /** Milliseconds to wait for Redis before applying `failOpen`. Default 200. */
  timeoutMs?: number;
  /** Told of every Redis failure. Default: one `console.warn` per outage (the first failure after a success). */
  onError?: (error: unknown) => void;
}

/** Redis did not answer in time. */
export class RedisStoreTimeoutError extends Error {
  override name = 'RedisStoreTimeoutError';
}

/**
 * A store shared by every process that points at the same Redis (and prefix): the sliding log of
 * `MemoryStore` as one sorted set per key, counted by one atomic Lua script, so the limit holds
 * across processes and machines. The client is passed in; `ioredis` and `redis` both work.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const store = new RedisStore({ client: new Redis(process.env.REDIS_URL!), prefix: 'api:' });
 * createServer({ controllers, middlewares: [rateLimit({ max: 100, windowMs: 60_000, store })] });
 *
 * // node-redis:
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const shared = new RedisStore({ client });
 * ```
 */
export class RedisStore implements RateLimitStore {
  readonly #redis: ScriptRunner;
  readonly #prefix: string;
  readonly #failOpen: boolean;
  readonly #timeoutMs: number;
  readonly #onError: (error: unknown) => void;
  #windowMs = 60_000;
  #maxArg = '-1';
  #initialised = false;
  /** Members of the sorted sets must be unique across every process: a random id + a counter. */
  readonly #id = randomBytes(6).toString('base64url');
  #sequence = 0;
  #failing = false;

  constructor(options: RedisStoreOptions) {
    if (options === null || typeof options !== 'object' || options.client == null) {
      throw new RateLimitError('KILN204', 'RedisStore needs { client }: an ioredis or redis client');
    }
    if (options.prefix !== undefined && typeof options.prefix !== 'string') throw new RateLimitError('KILN203', `RedisStore prefix must be a string, got ${typeof options.prefix}`);
    if (options.failOpen !== undefined && typeof options.failOpen !== 'boolean') throw new RateLimitError('KILN203', `RedisStore failOpen must be true or false, got ${typeof options.failOpen}`);
    this.#redis = scriptRunner(options.client);
    this.#prefix = options.prefix ?? 'kiln-rl:';
    this.#failOpen = options.failOpen ?? true;
    this.#timeoutMs = options.timeoutMs ?? 200;
    if (!(this.#timeoutMs > 0) || !Number.isFinite(this.#timeoutMs)) throw new RateLimitError('KILN203', `RedisStore timeoutMs must be a positive number, got ${options.timeoutMs}`);
    this.#onError = options.onError ?? ((error) => {
      if (!this.#failing) console.warn(`[@kiln/rate-limit] Redis failed; ${this.#failOpen ? 'letting requests through' : 'refusing requests'} until it answers again:`, error);
    });
  }

  /** Called by `rateLimit`. A store serves one limiter: a second `init` throws. */
  init(options: RateLimitStoreOptions): void {
    if (this.#initialised) {
      throw new RateLimitError('KILN202', 'This RedisStore already serves another rateLimit(); give each rateLimit() its own store and prefix (one rateLimit() may be reused on several routes)');
    }
    this.#initialised = true;
    this.#windowMs = Math.ceil(options.windowMs);
    this.#maxArg = String(options.max);
  }

  /** Counts a request for `key`; resolves to the requests in the window, this one included (0: Redis failed, failing open). */
  async increment(key: string): Promise<number> {
    return (await this.hit(key)).count;
  }

  /** `increment` plus the time (ms) when the oldest counted request leaves the window. */
  hit(key: string): Promise<RateLimitHit> {
    const member = `${this.#id}:${(this.#sequence = (this.#sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    const args = [String(this.#windowMs), this.#maxArg, member];
    return this.#withTimeout(this.#redis.run(slidingWindowSha, slidingWindowScript, this.#prefix + key, args)).then(
      (reply) => {
        this.#failing = false;
        const [count, wait] = reply as [number | string, number | string];
        return { count: Number(count), resetTime: Date.now() + Number(wait) };
      },
      (error: unknown) => this.#failed(error),
    );
  }

  async reset(key: string): Promise<void> {
    await this.#withTimeout(this.#redis.del(this.#prefix + key));
  }

  #failed(error: unknown): RateLimitHit {
    try {
      this.#onError(error);
    } finally {
      this.#failing = true;
    }
    const resetTime = Date.now() + this.#windowMs;
    // Failing closed: a count above any max, so the limiter refuses with its own 429.
    return this.#failOpen ? { count: 0, resetTime } : { count: Number.MAX_SAFE_INTEGER, resetTime };
  }

  /** A reply, or a RedisStoreTimeoutError after timeoutMs: a request never waits on a Redis that is gone. */
  #withTimeout<T>(reply: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new RedisStoreTimeoutError(`Redis did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
      timer.unref();
      reply.then(
        (value) => { clearTimeout(timer); resolve(value); },
        (error: unknown) => { clearTimeout(timer); reject(error); },
      );
    });
  }
}
