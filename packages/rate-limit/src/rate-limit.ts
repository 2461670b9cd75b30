import type { KilnRequest } from '@kiln/core';
import { addressKey, boundedKey, defaultKeyGenerator } from './client-key.js';
import { MemoryStore } from './memory-store.js';
import type { RateLimitOptions } from './rate-limit-options.js';
import { RateLimitError } from './rate-limit-error.js';
import {
  defaultPolicyName,
  defaultTieredPolicyName,
  headerWriter,
  type HeaderWriter,
  isPolicyName,
  standardHeaderModes,
} from './rate-limit-headers.js';
import type { RateLimitHit, RateLimitStore } from './rate-limit-store.js';
import { handlerResponse, tooManyRequests } from './too-many-requests.js';
import { withOpenApiDescription } from './openapi-description.js';

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * Runs a hit's `refund`: undefined when it finished synchronously (MemoryStore), else a promise
 * settled once it has (never rejected: a refund that fails leaves the request counted, and the
 * store reports its own errors).
 */
function takeBack(refund: () => void | Promise<void>): Promise<void> | undefined {
  let result: unknown;
  try {
    result = refund();
  } catch {
    return undefined;
  }
  if (!isPromiseLike(result)) return undefined;
  return Promise.resolve(result).then(
    () => {},
    () => {},
  );
}

/** Everything that can be checked before the first request is checked here (KILN201). */
function checkOptions(options: RateLimitOptions, max: unknown, windowMs: number): void {
  if (options === null || typeof options !== 'object')
    throw new RateLimitError('KILN201', `rateLimit(options): options must be an object, got ${options}`);
  if (typeof max !== 'function' && (!Number.isInteger(max) || (max as number) < 0))
    throw new RateLimitError(
      'KILN201',
      `rateLimit: max must be a whole number of requests (0 or more) or a function of the request, got ${max}`,
    );
  if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0) {
    throw new RateLimitError('KILN201', `rateLimit: windowMs must be a positive number of milliseconds, got ${windowMs}`);
  }
  for (const name of ['keyGenerator', 'handler', 'skip', 'cost'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new RateLimitError('KILN201', `rateLimit: ${name} must be a function, got ${typeof options[name]}`);
    }
  }
  if (options.standardHeaders !== undefined && !standardHeaderModes.includes(options.standardHeaders)) {
    throw new RateLimitError(
      'KILN201',
      `rateLimit: standardHeaders must be true, false, 'draft-6', 'draft-7' or 'draft-8', got ${JSON.stringify(options.standardHeaders)}`,
    );
  }
  for (const name of ['legacyHeaders', 'trustProxy'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') {
      throw new RateLimitError('KILN201', `rateLimit: ${name} must be true or false, got ${typeof options[name]}`);
    }
  }
  if (options.name !== undefined && !isPolicyName(options.name)) {
    throw new RateLimitError(
      'KILN201',
      `rateLimit: name must be 1 to 64 printable ASCII characters without '"' or '\\', got ${JSON.stringify(options.name)}`,
    );
  }
  const subnet = options.ipv6Subnet;
  if (subnet !== undefined && subnet !== false && (!Number.isInteger(subnet) || subnet < 1 || subnet > 128)) {
    throw new RateLimitError('KILN201', `rateLimit: ipv6Subnet must be a prefix length from 1 to 128, or false, got ${subnet}`);
  }
  const store = options.store;
  if (store !== undefined && (store === null || typeof store.increment !== 'function' || typeof store.reset !== 'function')) {
    throw new RateLimitError('KILN201', 'rateLimit: store must have increment(key) and reset(key) methods');
  }
  if (options.skipSuccessfulRequests !== undefined && typeof options.skipSuccessfulRequests !== 'boolean')
    throw new RateLimitError(
      'KILN201',
      `rateLimit: skipSuccessfulRequests must be true or false, got ${typeof options.skipSuccessfulRequests}`,
    );
  const weighing = options.cost !== undefined || typeof max === 'function' || options.skipSuccessfulRequests === true;
  if (weighing && store !== undefined && typeof store.hit !== 'function') {
    throw new RateLimitError(
      'KILN207',
      'rateLimit: cost, a max function and skipSuccessfulRequests need a store with hit(key, { cost, max }); this store has only increment()',
    );
  }
  const algorithm = options.algorithm;
  if (algorithm !== undefined && algorithm !== 'sliding-log' && algorithm !== 'sliding-window-counter') {
    throw new RateLimitError(
      'KILN201',
      `rateLimit: algorithm must be 'sliding-log' or 'sliding-window-counter', got ${JSON.stringify(algorithm)}`,
    );
  }
  const block = options.blockDuration;
  if (block !== undefined && (typeof block !== 'number' || !Number.isSafeInteger(block) || block < 0))
    throw new RateLimitError(
      'KILN210',
      `rateLimit: blockDuration must be a whole number of milliseconds (0 or more), got ${String(block)}`,
    );
  if (block !== undefined && block > 0 && store !== undefined && (typeof store.init !== 'function' || typeof store.hit !== 'function')) {
    throw new RateLimitError(
      'KILN211',
      'rateLimit: blockDuration needs a store that is told it through init() and reports the block through hit(); this store lacks one of them',
    );
  }
  if (algorithm === 'sliding-window-counter' && store !== undefined && typeof store.init !== 'function') {
    throw new RateLimitError(
      'KILN201',
      "rateLimit: algorithm 'sliding-window-counter' needs a store that is told it through init(); this store has no init()",
    );
  }
}

/** What a `cost` function returned, checked: a whole number ≥ 0, else a server error (KILN208), never a silent free pass. */
function requestCost(cost: unknown): number {
  if (typeof cost === 'number' && Number.isSafeInteger(cost) && cost >= 0) return cost;
  throw new RateLimitError('KILN208', `rateLimit: cost(req) must return a whole number of units (0 or more), got ${String(cost)}`);
}

/** What a `max` function returned, checked: a whole number ≥ 0, else a server error (KILN209). */
function requestMax(max: unknown): number {
  if (typeof max === 'number' && Number.isSafeInteger(max) && max >= 0) return max;
  throw new RateLimitError('KILN209', `rateLimit: max(req) must return a whole number of requests (0 or more), got ${String(max)}`);
}

let warnedTrustProxy = false;

/** `rateLimit({ trustProxy })` is superseded by the server's setting: say so once per process. */
function warnTrustProxy(): void {
  if (warnedTrustProxy) return;
  warnedTrustProxy = true;
  process.emitWarning(
    'rateLimit({ trustProxy }) is deprecated: the default key is req.ip, governed by createServer({ trustProxy }). rateLimit({ trustProxy: false }) still keys on the socket address alone.',
    { type: 'DeprecationWarning', code: 'KILN205' },
  );
}

/**
 * What `rateLimit()` returns: the middleware, plus a way to forget counters (between tests, for an
 * admin route, or when several apps of one process share a limiter defined at module level).
 */
export interface RateLimitMiddleware {
  /** The middleware itself (a Kiln `MiddlewareFunction`), spelled out so the type stands alone. */
  (req: KilnRequest, next: () => Promise<Response>): unknown;
  /**
   * Forgets one key: the key as `keyGenerator` returns it (with the default key, the client address
   * as `req.ip` gives it; an IPv6 address is grouped by `ipv6Subnet` here too).
   *
   * @example await loginLimit.resetKey('alice@example.com');
   */
  resetKey(key: string): Promise<void>;
  /**
   * Forgets every key of this limiter's store (`store.resetAll()`; KILN206 when the store has none).
   * A `RedisStore` deletes every key of its prefix.
   *
   * @example beforeEach(() => loginLimit.resetAll());
   */
  resetAll(): Promise<void>;
  /**
   * Counts `cost` units (default 1) against the request's key without answering it: a failed login,
   * a wrong one-time code. With `cost: () => 0` on the limiter, the middleware counts nothing and
   * refuses a key only once its penalties have spent the quota. A penalty that does not fit in what
   * is left is not recorded (the key has less room than it). Resolves to the store's hit; the
   * response of the penalized request keeps the headers written when it arrived.
   *
   * @example if (!valid) { await loginLimit.penalize(req); throw new HttpError(401, 'Wrong password'); }
   */
  penalize(req: KilnRequest, cost?: number): Promise<RateLimitHit>;
  /** The store counting for this limiter (the default `MemoryStore` when none was given). */
  readonly store: RateLimitStore;
}

/**
 * A sliding-window rate limiter. Per request: `skip` → key → count in the store → continue, or
 * answer 429 once the count exceeds `max`. Headers are recorded on the request
 * (`req.setResponseHeader`) and added to whatever response the request ends with, so a request
 * that passes costs no `Response`; with the default `MemoryStore` the middleware is synchronous.
 *
 * One instance reused on several routes shares its counters: a client gets `max` requests across
 * all of them. Create one instance per limit you want to keep separate.
 *
 * @example
 * ```ts
 * const strict = rateLimit({ max: 5, windowMs: 60_000 });
 *
 * @Controller('/auth')
 * class Auth {
 *   @Post('/login', strict) login() { ... }
 *   @Post('/reset', strict) reset() { ... }   // shares the 5 requests with /login
 * }
 *
 * createServer({ controllers: [Auth], middlewares: [rateLimit()] });  // 100 per minute overall
 * ```
 *
 * Counters live in the store, not in the app: a limiter defined at module level counts across
 * every `createServer()` that uses it. Call `limiter.resetAll()` between tests, or create the
 * limiter (and so its store) inside the function that builds each app.
 */
export function rateLimit(options: RateLimitOptions = {}): RateLimitMiddleware {
  const maxOption = options?.max ?? 100;
  const windowMs = options?.windowMs ?? 60_000;
  checkOptions(options, maxOption, windowMs);
  const maxOf = typeof maxOption === 'function' ? maxOption : undefined;
  // with a max function every hit carries the request's max; the store's own is then never used
  const max = maxOf === undefined ? (maxOption as number) : Number.MAX_SAFE_INTEGER;
  const costOf = options.cost;
  const refundSuccess = options.skipSuccessfulRequests === true;
  const weighed = costOf !== undefined || maxOf !== undefined || refundSuccess;
  const store = options.store ?? new MemoryStore();
  store.init?.({
    windowMs,
    max,
    algorithm: options.algorithm ?? 'sliding-log',
    blockDuration: options.blockDuration ?? 0,
    skipSuccessfulRequests: refundSuccess,
  });
  if (options.trustProxy !== undefined && options.keyGenerator === undefined) warnTrustProxy();
  const customKey = options.keyGenerator;
  const keyGenerator = customKey ?? defaultKeyGenerator(options.ipv6Subnet ?? 56, options.trustProxy === false);
  const { handler, skip } = options;
  const standardHeaders = options.standardHeaders ?? true;
  const legacyHeaders = options.legacyHeaders ?? false;
  const name = options.name ?? (maxOf === undefined ? defaultPolicyName(max, windowMs) : defaultTieredPolicyName(windowMs));
  const writeHeaders = headerWriter({ standardHeaders, legacyHeaders, max, windowMs, name });
  // A max function: one compiled writer per max it returns (tiers are few; the cache is bounded all the same).
  const writers = new Map<number, HeaderWriter | undefined>();
  const writerFor = (limit: number): HeaderWriter | undefined => {
    if (limit === max) return writeHeaders;
    let writer = writers.get(limit);
    if (writer === undefined) {
      if (writers.size >= 256) writers.clear();
      writer = headerWriter({ standardHeaders, legacyHeaders, max: limit, windowMs, name });
      writers.set(limit, writer);
    }
    return writer;
  };
  const retryAfterHeader = standardHeaders !== false || legacyHeaders;

  const refuse = (req: KilnRequest, resetTime: number, now: number, limit: number): unknown => {
    const retryAfter = Math.max(1, Math.ceil((resetTime - now) / 1000));
    if (retryAfterHeader) req.setResponseHeader('Retry-After', String(retryAfter));
    if (handler === undefined) return tooManyRequests(req, retryAfter);
    const result = handler(req, limit, 0, resetTime);
    return isPromiseLike(result)
      ? Promise.resolve(result).then((value) => handlerResponse(req, value, retryAfter))
      : handlerResponse(req, result, retryAfter);
  };

  // hot path: the recorded headers and no allocation beyond their strings
  const decide = (req: KilnRequest, count: number, resetTime: number): unknown => {
    if (count === 0) return undefined; // the store let it through uncounted (e.g. failing open)
    const now = Date.now();
    if (writeHeaders !== undefined) writeHeaders(req, count, resetTime, now);
    return count <= max ? undefined : refuse(req, resetTime, now, max);
  };

  // a weighed request: its own max (headers and refusal), and a count of 0 is real for a free request on an empty key
  const decideWeighed = (req: KilnRequest, hit: RateLimitHit, limit: number, cost: number, next?: () => Promise<Response>): unknown => {
    if (hit.count === 0 && cost > 0) return undefined;
    const now = Date.now();
    writerFor(limit)?.(req, hit.count, hit.resetTime, now);
    if (hit.count > limit) return refuse(req, hit.resetTime, now, limit);
    const refund = hit.refund;
    if (refund === undefined || next === undefined) return undefined;
    // skipSuccessfulRequests: counted now (so concurrent requests cannot overrun), taken back once the answer is a success,
    // and before that answer is handed on: a client's next request (to this process or another) must find it taken back
    return next().then((response) => {
      if (response.status >= 400) return response;
      const takenBack = takeBack(refund);
      return takenBack === undefined ? response : takenBack.then(() => response);
    });
  };

  const consume = (req: KilnRequest, key: string, cost: number, returned: unknown, next?: () => Promise<Response>): unknown => {
    const limit = maxOf === undefined ? max : requestMax(returned);
    const hit = store.hit!(key, { cost, max: limit, refundable: next !== undefined && refundSuccess });
    return isPromiseLike(hit)
      ? hit.then((settled) => decideWeighed(req, settled, limit, cost, next))
      : decideWeighed(req, hit, limit, cost, next);
  };

  const weigh = (req: KilnRequest, key: string, next?: () => Promise<Response>): unknown => {
    const cost = costOf === undefined ? 1 : requestCost(costOf(req));
    const limit = maxOf === undefined ? max : maxOf(req);
    return isPromiseLike(limit) ? limit.then((value) => consume(req, key, cost, value, next)) : consume(req, key, cost, limit, next);
  };

  const keyOf = (req: KilnRequest): string => (customKey === undefined ? keyGenerator(req) : boundedKey(keyGenerator(req)));

  const fromHit = (req: KilnRequest) => (hit: RateLimitHit) => decide(req, hit.count, hit.resetTime);
  const fromCount = (req: KilnRequest) => (count: number) => decide(req, count, Date.now() + windowMs);

  // hot path: synchronous whenever the store answers synchronously
  const count = (req: KilnRequest, next: () => Promise<Response>): unknown => {
    const key = keyOf(req);
    if (weighed) return weigh(req, key, next);
    if (store.hit !== undefined) {
      const hit = store.hit(key);
      return isPromiseLike(hit) ? hit.then(fromHit(req)) : decide(req, hit.count, hit.resetTime);
    }
    const counted = store.increment(key);
    return isPromiseLike(counted) ? counted.then(fromCount(req)) : decide(req, counted, Date.now() + windowMs);
  };

  // The served OpenAPI document learns the 429 and headers of every route this limiter guards.
  const middleware = withOpenApiDescription(
    function rateLimitMiddleware(req: KilnRequest, next: () => Promise<Response>): unknown {
      if (skip !== undefined) {
        const skipped = skip(req);
        if (isPromiseLike(skipped)) return skipped.then((yes) => (yes ? undefined : count(req, next)));
        if (skipped) return undefined;
      }
      return count(req, next);
    },
    { max: maxOf === undefined ? max : undefined, windowMs, standardHeaders, legacyHeaders, customHandler: handler !== undefined },
  );
  const subnet = options.ipv6Subnet ?? 56;
  return Object.assign(middleware, {
    store,
    async penalize(req: KilnRequest, cost = 1): Promise<RateLimitHit> {
      if (typeof store.hit !== 'function')
        throw new RateLimitError('KILN207', 'limiter.penalize(): this store has no hit(key, { cost, max }); use a built-in store');
      const units = requestCost(cost);
      const limit = maxOf === undefined ? max : requestMax(await maxOf(req));
      return store.hit(keyOf(req), { cost: units, max: limit });
    },
    async resetKey(key: string): Promise<void> {
      if (typeof key !== 'string') throw new RateLimitError('KILN201', `limiter.resetKey(key): key must be a string, got ${typeof key}`);
      // the key the middleware would have counted under
      await store.reset(customKey === undefined ? addressKey(key, subnet) : boundedKey(key));
    },
    async resetAll(): Promise<void> {
      if (typeof store.resetAll !== 'function')
        throw new RateLimitError('KILN206', 'limiter.resetAll(): this store has no resetAll(); add one, or give each app its own limiter');
      await store.resetAll();
    },
  });
}
