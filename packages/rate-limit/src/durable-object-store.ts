import { MemoryStore } from './memory-store.js';
import { RateLimitError } from './rate-limit-error.js';
import type { RateLimitAlgorithm, RateLimitHit, RateLimitRequest, RateLimitStore, RateLimitStoreOptions } from './rate-limit-store.js';

/** The part of a Workers `DurableObjectNamespace` binding that `DurableObjectStore` uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

export interface DurableObjectStoreOptions {
  /** The binding of `RateLimiterDurableObject`'s namespace (`env.RATE_LIMITER`). */
  namespace: DurableObjectNamespaceLike;
  /** Prefix of every object's name. Default `'kiln-rl:'`. Give each `rateLimit()` sharing a namespace its own. */
  prefix?: string;
}

/** What one call asks of the object: the limiter's settings and the request's weight. */
interface HitMessage {
  windowMs: number;
  max: number;
  algorithm: RateLimitAlgorithm;
  blockDuration: number;
  cost?: number;
  requestMax?: number;
}

// the object is reached by name; the host part of the URL is never resolved
const origin = 'https://kiln-rate-limit.internal';

/**
 * A store for Cloudflare Workers: each limiter key is one Durable Object (`idFromName(prefix +
 * key)`), which counts it in its memory with `MemoryStore`'s code, single-threaded, so every isolate
 * and every location that routes the key there shares one exact count. Both algorithms, `cost`, a
 * `max` function and `blockDuration` work as with `MemoryStore`; one request costs one call to the
 * object. Export `RateLimiterDurableObject` from your Worker and bind its namespace.
 *
 * Not kept: an object's counts live in its memory, so when the runtime evicts an idle object (or
 * restarts it) the key starts afresh, as with `MemoryStore` on a restart. `skipSuccessfulRequests`
 * takes nothing back (its requests stay counted), and there is no `resetAll` (objects cannot be
 * listed). A failed call to the object fails the request (a 500).
 *
 * @example
 * ```ts
 * export { RateLimiterDurableObject } from '@kiln/rate-limit';
 * export default {
 *   fetch(request: Request, env: { RATE_LIMITER: DurableObjectNamespace }) {
 *     const store = new DurableObjectStore({ namespace: env.RATE_LIMITER });
 *     // build the app once per isolate with rateLimit({ store }), then: return app.fetch(request);
 *   },
 * };
 * ```
 */
export class DurableObjectStore implements RateLimitStore {
  readonly #namespace: DurableObjectNamespaceLike;
  readonly #prefix: string;
  #settings: HitMessage = { windowMs: 60_000, max: 100, algorithm: 'sliding-log', blockDuration: 0 };
  #initialised = false;

  constructor(options: DurableObjectStoreOptions) {
    const namespace = options?.namespace;
    if (namespace == null || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function')
      throw new RateLimitError(
        'KILN213',
        'DurableObjectStore needs { namespace }: the Durable Object namespace binding of RateLimiterDurableObject',
      );
    if (options.prefix !== undefined && typeof options.prefix !== 'string')
      throw new RateLimitError('KILN213', `DurableObjectStore prefix must be a string, got ${typeof options.prefix}`);
    this.#namespace = namespace;
    this.#prefix = options.prefix ?? 'kiln-rl:';
  }

  /** Called by `rateLimit`. A store serves one limiter: a second `init` throws. */
  init(options: RateLimitStoreOptions): void {
    if (this.#initialised)
      throw new RateLimitError(
        'KILN202',
        'This DurableObjectStore already serves another rateLimit(); give each rateLimit() its own store and prefix',
      );
    this.#initialised = true;
    this.#settings = {
      windowMs: options.windowMs,
      max: options.max,
      algorithm: options.algorithm ?? 'sliding-log',
      blockDuration: options.blockDuration ?? 0,
    };
  }

  #object(key: string) {
    return this.#namespace.get(this.#namespace.idFromName(this.#prefix + key) as never);
  }

  async increment(key: string): Promise<number> {
    return (await this.hit(key)).count;
  }

  async hit(key: string, request?: RateLimitRequest): Promise<RateLimitHit> {
    const message: HitMessage = request === undefined ? this.#settings : { ...this.#settings, cost: request.cost, requestMax: request.max };
    const response = await this.#object(key).fetch(`${origin}/hit`, { method: 'POST', body: JSON.stringify(message) });
    if (!response.ok) throw new Error(`RateLimiterDurableObject answered ${response.status}: ${await response.text()}`);
    const { count, resetTime } = (await response.json()) as RateLimitHit;
    return { count, resetTime };
  }

  async reset(key: string): Promise<void> {
    const response = await this.#object(key).fetch(`${origin}/reset`, { method: 'POST' });
    await response.arrayBuffer();
  }
}

/**
 * The Durable Object behind `DurableObjectStore`: one per limiter key, counting it in memory with
 * `MemoryStore` (both algorithms, `cost`, `blockDuration`). Export it from the Worker's module and
 * declare its namespace (wrangler: `durable_objects.bindings` + a migration with
 * `new_classes = ["RateLimiterDurableObject"]`).
 */
export class RateLimiterDurableObject {
  #store: MemoryStore | undefined;
  /** The settings `#store` was made for: a limiter deployed with others starts afresh. */
  #settings = '';

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/reset') {
      this.#store?.close();
      this.#store = undefined;
      return new Response(null, { status: 204 });
    }
    if (path !== '/hit' || request.method !== 'POST') return new Response('Not Found', { status: 404 });
    const message = (await request.json()) as HitMessage;
    const settings = `${message.windowMs} ${message.max} ${message.algorithm} ${message.blockDuration}`;
    if (this.#store === undefined || this.#settings !== settings) {
      this.#store?.close();
      this.#store = new MemoryStore();
      this.#store.init({
        windowMs: message.windowMs,
        max: message.max,
        algorithm: message.algorithm,
        blockDuration: message.blockDuration,
      });
      this.#settings = settings;
    }
    const hit =
      message.cost === undefined
        ? this.#store.hit('key')
        : this.#store.hit('key', { cost: message.cost, max: message.requestMax ?? message.max });
    return Response.json({ count: hit.count, resetTime: hit.resetTime });
  }
}
