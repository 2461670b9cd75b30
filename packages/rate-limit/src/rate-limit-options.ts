import type { KilnRequest } from '@kiln/core';
import type { RateLimitAlgorithm, RateLimitStore } from './rate-limit-store.js';
import type { StandardHeaders } from './rate-limit-headers.js';

/** Options of `rateLimit`. Every one is optional. */
export interface RateLimitOptions {
  /**
   * Requests (units of `cost`) allowed per window and key. Default 100. `0` refuses every request.
   * A function of the request gives each request its own limit (tiers per user or plan); it may
   * return a promise, and must give a whole number ≥ 0 (else the request fails with a 500,
   * KILN209). The headers and the 429 show the request's own max. Needs a store with `hit`.
   *
   * @example (req) => ((req.user as User | undefined)?.plan === 'pro' ? 1000 : 100)
   */
  max?: number | ((req: KilnRequest) => number | Promise<number>);
  /**
   * The weight of a request in units of `max`. Default 1 for every request. A whole number ≥ 0:
   * anything else fails the request with a 500 (KILN208: a bug in the function, not the client's).
   * A request is counted when its cost fits in what is left; a refused one counts nothing, and its
   * `Retry-After` is when its whole cost fits (a cost above `max` never fits: it is refused with a
   * window's `Retry-After`). A cost of 0 counts nothing but is refused once the key's quota is spent.
   * Needs a store with `hit` (KILN207; both built-in stores have it).
   *
   * @example (req) => (req.method === 'POST' ? 5 : 1)
   */
  cost?: (req: KilnRequest) => number;
  /**
   * Count only failed requests: a request is counted when it arrives (so concurrent ones cannot
   * overrun the limit) and taken back once it is answered with a status below 400, before that
   * answer is handed on: the client's next request, whichever process serves it, finds the units
   * back (with `RedisStore`, one more round trip per success, at most its `timeoutMs`). A key is
   * refused once its failures spend the quota, successes included then. Default false. Needs a
   * store with `hit` (KILN207). See also `limiter.penalize(req)` for failures a status does not show.
   *
   * @example rateLimit({ max: 5, windowMs: 15 * 60_000, skipSuccessfulRequests: true }) // 5 failed logins per 15 min
   */
  skipSuccessfulRequests?: boolean;
  /** Window length in milliseconds; the window slides (it is not a fixed clock interval). Default 60 000. */
  windowMs?: number;
  /**
   * How long (ms) a key stays refused once a request of it is refused: every request of the key is
   * answered 429 until then, whatever its cost, without being counted, and `Retry-After` says when
   * it ends. The block lasts at least until the refused request would have passed without it (a
   * block never lets a key in earlier than its window would), and it is not extended by requests
   * made during it. The window keeps its counts: when the block ends the key has what its window
   * left it. Default 0: no block. A whole number ≥ 0 (else KILN210); needs a store that is told it
   * through `init` and has `hit` (KILN211; both built-in stores, atomically in Redis).
   *
   * @example rateLimit({ max: 5, windowMs: 60_000, blockDuration: 15 * 60_000 }) // a 6th request in a minute locks the key out for 15 min
   */
  blockDuration?: number;
  /**
   * The key that identifies the requester. Default: the client address as the server computes
   * `req.ip` (so `createServer({ trustProxy })` decides whether proxy headers count), an IPv6
   * address grouped by `ipv6Subnet`; without any address (in-process `app.fetch` without proxy
   * headers), a hash of `User-Agent` + `Accept-Language`. A key over 256 characters is replaced
   * by its SHA-256 digest.
   *
   * @example (req) => (req.user as User | undefined)?.id ?? addressKey(req.ip ?? 'anonymous')
   */
  keyGenerator?: (req: KilnRequest) => string;
  /** Counter storage. Default: a new `MemoryStore`. A store serves one `rateLimit()`. */
  store?: RateLimitStore;
  /**
   * How the window is counted. `'sliding-log'` (default): exact, one timestamp per counted request
   * (memory per key grows with `max`). `'sliding-window-counter'`: the weighted two-window
   * estimate, O(1) memory per key whatever `max` is (one short string per key in Redis, one
   * round trip per request); it never counts more than `max` in an aligned window, and fewer than
   * `2 × max` in any sliding one (the rate-limiting guide derives the bound). Both built-in stores
   * implement both; a custom store is told through `init` and must refuse what it cannot do.
   *
   * @example rateLimit({ max: 1000, windowMs: 60_000, algorithm: 'sliding-window-counter', store: new RedisStore({ client }) })
   */
  algorithm?: RateLimitAlgorithm;
  /**
   * Answers a refused request. It may return data (sent as JSON with status 429), a `Response`
   * (sent as is), `undefined` (the default 429), or throw `HttpError(429, message)`.
   * `remaining` is always 0; `resetTime` is the Unix time in milliseconds when a request will pass
   * again. Default: Kiln's JSON 429 (`{ error, message }`).
   *
   * @example (req, limit, remaining, resetTime) => ({ error: 'slow down', retryAt: new Date(resetTime).toISOString() })
   */
  handler?: (req: KilnRequest, limit: number, remaining: number, resetTime: number) => Response | unknown | Promise<Response | unknown>;
  /**
   * Returns true for a request that must not be limited; it is neither counted nor given headers.
   *
   * @example (req) => req.headers.get('x-internal-token') === process.env.INTERNAL_TOKEN
   */
  skip?: (req: KilnRequest) => boolean | Promise<boolean>;
  /**
   * Which rate-limit header fields to add (see `StandardHeaders`): `true` (default) the three
   * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (Unix seconds); `'draft-6'`,
   * `'draft-7'` or `'draft-8'` the IETF draft's fields; `false` none. `Retry-After` is added to a
   * 429 unless both this and `legacyHeaders` are off.
   *
   * @example rateLimit({ standardHeaders: 'draft-8', name: 'global' })
   */
  standardHeaders?: StandardHeaders;
  /** Also add `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix seconds), as older clients read. Default false. */
  legacyHeaders?: boolean;
  /**
   * The policy's name in the `'draft-8'` fields, so that stacked limiters are told apart in one
   * response. Printable ASCII without `"` or `\`, at most 64 characters. Default
   * `<max>-in-<window s>s`, e.g. `100-in-60s`.
   */
  name?: string;
  /**
   * Prefix length that groups IPv6 clients in the default key: a client usually owns a whole /56
   * or /64 and could otherwise rotate addresses inside it. Default 56; `false` keys on the whole
   * address. IPv4 addresses are always keyed whole.
   */
  ipv6Subnet?: number | false;
  /**
   * @deprecated The server's `createServer({ trustProxy })` governs `req.ip` and so the default
   * key. `false` here still keys on the socket address alone (and warns once, KILN205); `true`
   * defers to the server. Ignored with a `keyGenerator`.
   */
  trustProxy?: boolean;
}
