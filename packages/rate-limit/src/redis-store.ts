import { isNoScript, scriptRunner, type RedisClientLike, type ScriptRunner } from './redis-client.js';
import { CallDeadlines } from './call-deadlines.js';
import { base64url } from './digests.js';
import type { RateLimitHit, RateLimitRequest, RateLimitStore, RateLimitStoreOptions } from './rate-limit-store.js';
import { slidingWindowScript, slidingWindowSha } from './sliding-window-script.js';
import {
  counterTakeBackScript,
  counterTakeBackSha,
  slidingWindowCounterScript,
  slidingWindowCounterSha,
} from './sliding-window-counter-script.js';
import { settle } from './sliding-window-counter.js';
import { RateLimitError } from './rate-limit-error.js';
import { BlockCache } from './block-cache.js';

export interface RedisStoreOptions {
  /** A connected (or connecting) `ioredis` or `redis` client. The application owns it and closes it. */
  client: RedisClientLike;
  /**
   * Prefix of every Redis key. Default `'kiln-rl:'`. Give each `rateLimit()` sharing a Redis its
   * own. No `{` or `}`: the key's hash tag is the limiter key (see `keyFor`).
   */
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
  /**
   * Where the window's time comes from. Default: the Redis server's `TIME`, so app machines with
   * skewed clocks agree. A function returning Unix milliseconds (every process must agree on it)
   * replaces it, e.g. a fake clock in your own tests.
   */
  clock?: () => number;
  /**
   * Remember in this process the keys Redis refused, and answer them 429 without a round trip
   * until their refusal ends: a block (`rateLimit({ blockDuration })`) until it ends, any other
   * refusal until the window would let that request (or any needing more room) in. It only refuses
   * what Redis would; other processes still count in Redis. `true` (default): at most 10,000 keys;
   * `{ maxKeys }` another bound; `false`: ask Redis every time (e.g. when another process's
   * `resetKey` must lift a block here at once).
   */
  blockCache?: boolean | { maxKeys?: number };
}

/** A SCAN MATCH pattern matching `text` literally. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** How long a learned Redis clock offset is trusted before the counter reads `TIME` again (clock drift). */
const offsetLifetimeMs = 10_000;

/**
 * Local time in Unix ms on the monotonic clock: what the Redis clock offset is measured against,
 * so a wall-clock step (or a test's fake `Date.now`) does not move the estimate of Redis's time.
 */
function localNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Redis did not answer in time. */
export class RedisStoreTimeoutError extends Error {
  override name = 'RedisStoreTimeoutError';
}

/**
 * A store shared by every process that points at the same Redis (and prefix): the sliding log of
 * `MemoryStore` as one sorted set per key, counted by one atomic Lua script, so the limit holds
 * across processes and machines. The client is passed in; `ioredis` and `redis` both work.
 * With `rateLimit({ algorithm: 'sliding-window-counter' })` each key is instead one short string
 * (`"<window> <previous> <current>"`) updated by a script of at most three commands: O(1) memory
 * per key whatever `max` is, still one round trip.
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
  readonly #deadlines: CallDeadlines;
  readonly #onError: (error: unknown) => void;
  #windowMs = 60_000;
  #max = -1;
  #maxArg = '-1';
  #windowMsArg = '60000';
  /** `algorithm: 'sliding-window-counter'`: one string per key instead of a sorted set. */
  #counter = false;
  /** `rateLimit({ blockDuration })` in ms (0: none), and as the scripts' argument. */
  #blockMs = 0;
  #blockArg = '0';
  #initialised = false;
  /** `skipSuccessfulRequests`: counts can fall by a refund, so only blocks are cached. */
  #refunds = false;
  /** Members of the sorted sets must be unique across every process: a random id + a counter. */
  readonly #id = base64url(globalThis.crypto.getRandomValues(new Uint8Array(6)));
  #sequence = 0;
  #failing = false;
  readonly #clock: (() => number) | undefined;
  /** Redis time minus local time (ms), as an upper bound measured from recent replies; undefined before the first. */
  #offset: number | undefined;
  #offsetAt = 0;
  /** The refusals Redis answered, kept here (`blockCache`); undefined when off. */
  readonly #blocks: BlockCache | undefined;

  constructor(options: RedisStoreOptions) {
    if (options === null || typeof options !== 'object' || options.client == null) {
      throw new RateLimitError('KILN204', 'RedisStore needs { client }: an ioredis or redis client');
    }
    if (options.prefix !== undefined && typeof options.prefix !== 'string')
      throw new RateLimitError('KILN203', `RedisStore prefix must be a string, got ${typeof options.prefix}`);
    if (options.prefix?.includes('{') || options.prefix?.includes('}')) {
      throw new RateLimitError(
        'KILN203',
        `RedisStore prefix must not contain '{' or '}' (the limiter key is the Redis Cluster hash tag), got '${options.prefix}'`,
      );
    }
    if (options.clock !== undefined && typeof options.clock !== 'function')
      throw new RateLimitError('KILN203', `RedisStore clock must be a function returning milliseconds, got ${typeof options.clock}`);
    this.#clock = options.clock;
    if (options.failOpen !== undefined && typeof options.failOpen !== 'boolean')
      throw new RateLimitError('KILN203', `RedisStore failOpen must be true or false, got ${typeof options.failOpen}`);
    this.#redis = scriptRunner(options.client);
    this.#prefix = options.prefix ?? 'kiln-rl:';
    this.#failOpen = options.failOpen ?? true;
    this.#timeoutMs = options.timeoutMs ?? 200;
    if (!(this.#timeoutMs > 0) || !Number.isFinite(this.#timeoutMs))
      throw new RateLimitError('KILN203', `RedisStore timeoutMs must be a positive number, got ${options.timeoutMs}`);
    this.#deadlines = new CallDeadlines(this.#timeoutMs);
    const cache = options.blockCache === undefined ? true : options.blockCache;
    const cacheKeys = typeof cache === 'object' && cache !== null ? (cache.maxKeys ?? 10_000) : 10_000;
    if (typeof cache !== 'boolean' && (typeof cache !== 'object' || cache === null))
      throw new RateLimitError('KILN212', `RedisStore blockCache must be true, false or { maxKeys }, got ${String(cache)}`);
    if (!Number.isSafeInteger(cacheKeys) || cacheKeys < 1)
      throw new RateLimitError('KILN212', `RedisStore blockCache.maxKeys must be a whole number above 0, got ${String(cacheKeys)}`);
    this.#blocks = cache === false ? undefined : new BlockCache(cacheKeys);
    this.#onError =
      options.onError ??
      ((error) => {
        if (!this.#failing)
          console.warn(
            `[@kiln/rate-limit] Redis failed; ${this.#failOpen ? 'letting requests through' : 'refusing requests'} until it answers again:`,
            error,
          );
      });
  }

  /** Keys whose refusal this process remembers (`blockCache`), answered without Redis until it ends. */
  get cachedRefusals(): number {
    return this.#blocks?.size ?? 0;
  }

  /** Called by `rateLimit`. A store serves one limiter: a second `init` throws. */
  init(options: RateLimitStoreOptions): void {
    if (this.#initialised) {
      throw new RateLimitError(
        'KILN202',
        'This RedisStore already serves another rateLimit(); give each rateLimit() its own store and prefix (one rateLimit() may be reused on several routes)',
      );
    }
    this.#initialised = true;
    this.#windowMs = Math.ceil(options.windowMs);
    this.#max = options.max;
    this.#maxArg = String(options.max);
    this.#windowMsArg = String(this.#windowMs);
    this.#counter = options.algorithm === 'sliding-window-counter';
    this.#blockMs = Math.ceil(options.blockDuration ?? 0);
    this.#blockArg = String(this.#blockMs);
    this.#refunds = options.skipSuccessfulRequests === true;
  }

  /** Counts a request for `key`; resolves to the requests in the window, this one included (0: Redis failed, failing open). */
  async increment(key: string): Promise<number> {
    return (await this.hit(key)).count;
  }

  /**
   * The Redis key of a limiter key: `<prefix>{<key>}`. The braces make the limiter key the Redis
   * Cluster hash tag, so the slot depends on the client alone (not on the prefix), and the one
   * key the script touches is always in one slot.
   *
   * @example new RedisStore({ client, prefix: 'api:' }).keyFor('203.0.113.7') // 'api:{203.0.113.7}'
   */
  keyFor(key: string): string {
    return `${this.#prefix}{${key}}`;
  }

  /** The Redis key of a limiter key's block (`blockDuration`): the time it ends, in the key's slot. */
  #blockKeyFor(redisKey: string): string {
    return `${redisKey}:block`;
  }

  /**
   * `increment` plus the time (ms) when the oldest counted request leaves the window. `request`
   * (from a limiter with `cost` or a `max` function) weighs it and sets its limit.
   */
  hit(key: string, request?: RateLimitRequest): RateLimitHit | Promise<RateLimitHit> {
    const max = request === undefined ? this.#max : request.max;
    const cost = request === undefined ? 1 : request.cost;
    const blocks = this.#blocks;
    if (blocks !== undefined) {
      // a key Redis refused: answered here, no round trip, until its refusal ends
      const until = blocks.refusedUntil(key, cost > 0 ? cost : 1, max, Date.now());
      if (until !== undefined) return { count: max + 1, resetTime: until };
    }
    const redisKey = this.keyFor(key);
    const counter = this.#counter;
    // the counter records no member: no unique id to build
    const member = counter ? '' : `${this.#id}:${(this.#sequence = (this.#sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    // with a clock option, time is that clock's alone (a test's fake clock moves the deadline too)
    const sentAt = this.#clock === undefined ? localNow() : this.#clock();
    const offset = this.#offset;
    let time: string;
    // the time sent, as a number: what the counter's short reply (3 integers) leaves out
    let timeMs = Number.NaN;
    // In Redis time: past it, this request has been given up (timed out) and the script must not count it.
    let deadline = offset === undefined ? -1 : sentAt + offset + this.#timeoutMs;
    // whether the reply's time is a fresh reading (Redis's TIME or the clock option) to learn the offset from
    let readsClock = true;
    if (this.#clock !== undefined) time = String((timeMs = sentAt));
    else if (counter && offset !== undefined && !this.#failing && sentAt - this.#offsetAt < offsetLifetimeMs) {
      // The counter's hot path: Redis time estimated here, so the script runs no TIME (3 commands, not 4).
      // No deadline can be checked against a time fixed at sending: a call answered late is taken back instead.
      time = String((timeMs = Math.round(sentAt + offset)));
      deadline = -1;
      readsClock = false;
    } else time = '';
    const args = [
      this.#windowMsArg,
      request === undefined ? this.#maxArg : String(max),
      member,
      deadline === -1 ? '-1' : String(deadline),
      time,
    ];
    if (cost !== 1 || this.#blockMs > 0) args.push(String(cost));
    if (this.#blockMs > 0) args.push(this.#blockArg);
    const blockKey = this.#blockMs > 0 ? this.#blockKeyFor(redisKey) : undefined;
    const sha = counter ? slidingWindowCounterSha : slidingWindowSha;
    return new Promise<RateLimitHit>((resolve) => {
      const call = this.#deadlines.start(() => {
        // The log's member may still be recorded if Redis runs the call later: remove it then.
        if (!counter) this.#forget(redisKey, member, cost);
        resolve(this.#failed(new RedisStoreTimeoutError(`Redis did not answer within ${this.#timeoutMs} ms`)));
      });
      const answered = (values: unknown): void => {
        const reply = values as (number | string)[];
        const status = Number(reply[0]);
        if (!this.#deadlines.finish(call)) {
          // given up already and answered without it: a count the late call made must not stay
          if (counter && status === 1)
            this.#takeBack(redisKey, reply.length === 3 ? Math.floor(timeMs / this.#windowMs) : Number(reply[4]), cost);
          return;
        }
        if (status < 0) {
          resolve(
            this.#failed(new RedisStoreTimeoutError('Redis ran the command after this request had given up on it; it was not counted')),
          );
          return;
        }
        this.#failing = false;
        if (readsClock) this.#learnOffset((reply.length === 3 ? timeMs : Number(reply[counter ? 3 : 2])) - sentAt, sentAt);
        const hit: RateLimitHit = counter
          ? this.#counterHit(status === 1, reply, timeMs, max, cost)
          : { count: status, resetTime: Date.now() + Number(reply[1]) };
        if (blocks !== undefined && hit.count > max) {
          // with blockDuration every refusal is a block of the whole key
          if (this.#blockMs > 0) blocks.remember(key, hit.resetTime, 0, Number.POSITIVE_INFINITY, Date.now());
          // (not with skipSuccessfulRequests: a success answered later gives its units back sooner,
          // whether this refusal was the middleware's or a penalize())
          else if (!this.#refunds && request?.refundable !== true)
            blocks.remember(key, hit.resetTime, cost > 0 ? cost : 1, max, Date.now());
        }
        if (request?.refundable && cost > 0 && (counter ? status === 1 : status <= max)) {
          // the log: remove the members recorded; the counter: take the units back from the window they were counted in
          const window = reply.length === 3 ? Math.floor(timeMs / this.#windowMs) : Number(reply[4]);
          hit.refund = counter
            ? () => this.#applied(() => this.#sendTakeBack(redisKey, window, cost))
            : () => this.#applied(() => this.#sendForget(redisKey, member, cost));
        }
        resolve(hit);
      };
      const failed = (error: unknown): void => {
        if (!this.#deadlines.finish(call)) return; // the timeout answered already
        if (!counter) this.#forget(redisKey, member, cost);
        resolve(this.#failed(error));
      };
      try {
        this.#redis.run(sha, redisKey, args, blockKey).then(answered, (error: unknown) => {
          if (!isNoScript(error)) return failed(error);
          const script = counter ? slidingWindowCounterScript : slidingWindowScript;
          this.#redis.evaluate(script, redisKey, args, blockKey).then(answered, failed);
        });
      } catch (error) {
        failed(error); // a client that cannot even queue the command
      }
    });
  }

  /**
   * The counter script's reply { counted, previous, current, time, window } as a hit, its reset
   * time moved to local time. A reply of the first three alone means: counted at `timeMs`, the
   * time sent, in that time's window.
   */
  #counterHit(counted: boolean, reply: (number | string)[], timeMs: number, max: number, cost: number): RateLimitHit {
    const windowMs = this.#windowMs;
    if (reply.length === 6) {
      // refused by a block (ongoing or started by this request): it ends at reply[5], in the script's time
      const at = Math.max(Number(reply[3]), Number(reply[4]) * windowMs);
      return { count: max + 1, resetTime: Date.now() + (Number(reply[5]) - at) };
    }
    let window: number;
    let now: number;
    if (reply.length === 3) {
      now = timeMs;
      window = Math.floor(now / windowMs);
    } else {
      window = Number(reply[4]);
      // the time the script counted at: the start of the key's window when that is later than ours
      now = Math.max(Number(reply[3]), window * windowMs);
    }
    const counts = { window, previous: Number(reply[1]), current: Number(reply[2]) };
    const hit = settle(counts, counted, now, now - window * windowMs, windowMs, max, cost);
    hit.resetTime = Date.now() + (hit.resetTime - now);
    return hit;
  }

  /** Undoes `units` counted by the counter script in `window` (a call answered after it was given up), without waiting. */
  #takeBack(redisKey: string, window: number, units: number): void {
    try {
      this.#sendTakeBack(redisKey, window, units).then(undefined, (error: unknown) => this.#onError(error));
    } catch (error) {
      this.#onError(error); // a client that cannot even queue the command
    }
  }

  /** Sends the counter's take-back of `units` counted in `window`; settles once Redis has run it (its text sent after a NOSCRIPT). */
  #sendTakeBack(redisKey: string, window: number, units: number): Promise<unknown> {
    const args = [String(window), String(units)];
    return this.#redis
      .run(counterTakeBackSha, redisKey, args)
      .then(undefined, (error: unknown) =>
        isNoScript(error) ? this.#redis.evaluate(counterTakeBackScript, redisKey, args) : Promise.reject(error),
      );
  }

  /**
   * A refund (`skipSuccessfulRequests`): settles once Redis has applied `send`, or has failed to,
   * or after `timeoutMs` (the request then stays counted unless the command runs later). The
   * middleware hands the response on only then, so the client's next request, whichever process
   * serves it, finds the units back. Never rejects: failures go to `onError`.
   */
  #applied(send: () => Promise<unknown>): Promise<void> {
    return new Promise<void>((resolve) => {
      const call = this.#deadlines.start(() => {
        this.#onError(new RedisStoreTimeoutError(`Redis did not take a successful request back within ${this.#timeoutMs} ms`));
        resolve();
      });
      const failed = (error: unknown): void => {
        if (!this.#deadlines.finish(call)) return;
        this.#onError(error);
        resolve();
      };
      try {
        send().then(() => this.#deadlines.finish(call) && resolve(), failed);
      } catch (error) {
        failed(error); // a client that cannot even queue the command
      }
    });
  }

  async reset(key: string): Promise<void> {
    this.#blocks?.forget(key);
    const redisKey = this.keyFor(key);
    const deleted =
      this.#blockMs > 0
        ? Promise.all([this.#redis.del(redisKey), this.#redis.del(this.#blockKeyFor(redisKey))])
        : this.#redis.del(redisKey);
    await new Promise<void>((resolve, reject) => {
      const call = this.#deadlines.start(() => reject(new RedisStoreTimeoutError(`Redis did not answer within ${this.#timeoutMs} ms`)));
      deleted.then(
        () => this.#deadlines.finish(call) && resolve(),
        (error: unknown) => this.#deadlines.finish(call) && reject(error),
      );
    });
  }

  /**
   * Deletes every key of this store's prefix (SCAN + UNLINK, on every master of a cluster client;
   * no timeout: it walks the keyspace). Give each `rateLimit()` its own prefix, or this also
   * clears the others. Resolves to how many keys were deleted.
   */
  resetAll(): Promise<number> {
    this.#blocks?.clear();
    // the keys and their blocks (`<prefix>{<key>}:block`)
    return this.#redis.deleteMatching(`${globEscape(this.#prefix)}{*`);
  }

  /**
   * Redis read its clock after we sent, so `now - sentAt` overstates the offset by the wait:
   * keep the smallest recent one (a deadline slightly late is caught by #forget; one too early
   * would refuse to count requests that were still awaited). Renewed every 10 s for clock drift
   * (the counter reads `TIME` again then).
   */
  #learnOffset(observed: number, sentAt: number): void {
    if (!Number.isFinite(observed)) return;
    if (this.#offset === undefined || observed < this.#offset || sentAt - this.#offsetAt >= offsetLifetimeMs) {
      this.#offset = observed;
      this.#offsetAt = sentAt;
    }
  }

  /**
   * A command we gave up on may still run when Redis answers again (a pause, a queue replayed on
   * reconnection): remove its member then. Sent on the same connection after the script call,
   * so it runs after it; a no-op when the script did not record it.
   */
  #forget(redisKey: string, member: string, cost: number): void {
    try {
      this.#sendForget(redisKey, member, cost).catch(() => {});
    } catch {
      // a client that cannot even queue the command: nothing was recorded through it either
    }
  }

  /** Removes the members of one request (the script records a request of cost n as member, member/2, … member/n). */
  #sendForget(redisKey: string, member: string, cost: number): Promise<unknown> {
    if (cost === 1) return this.#redis.remove(redisKey, member);
    const removed: Promise<unknown>[] = [];
    try {
      for (let i = 1; i <= cost; i++) removed.push(this.#redis.remove(redisKey, i === 1 ? member : `${member}/${i}`));
    } catch (error) {
      for (const sent of removed) sent.catch(() => {}); // the caller hears of the throw; these are not left unhandled
      throw error;
    }
    return Promise.all(removed);
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
}
