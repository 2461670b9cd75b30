import type { KilnRequest } from '@kiln/core';
import type { RateLimitStore } from './rate-limit-store.js';

/** Options of `rateLimit`. Every one is optional. */
export interface RateLimitOptions {
  /** Requests allowed per window and key. Default 100. `0` refuses every request. */
  max?: number;
  /** Window length in milliseconds; the window slides (it is not a fixed clock interval). Default 60 000. */
  windowMs?: number;
  /**
   * The key that identifies the requester. Default: first `X-Forwarded-For` address, else
   * `X-Real-IP`, else the socket address; without a socket (in-process `app.fetch`), a hash of
   * `User-Agent` + `Accept-Language`.
   *
   * @example (req) => (req.user as User | undefined)?.id ?? req.ip ?? 'anonymous'
   */
  keyGenerator?: (req: KilnRequest) => string;
  /** Counter storage. Default: a new `MemoryStore`. A store serves one `rateLimit()`. */
  store?: RateLimitStore;
  /**
   * Answers a refused request. It may return data (sent as JSON with status 429), a `Response`
   * (sent as is), `undefined` (the default 429), or throw `HttpError(429, message)`.
   * `remaining` is always 0; `resetTime` is the Unix time in milliseconds when a request will pass
   * again. Default: the spec's JSON 429.
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
  /** Add `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (and `Retry-After` on 429). Default true. */
  standardHeaders?: boolean;
  /**
   * Whether the default key reads `X-Forwarded-For` / `X-Real-IP`. Default true (the spec's
   * rule). Set false when clients reach the server directly: they could otherwise send a new
   * `X-Forwarded-For` with every request and never be limited. Ignored with a `keyGenerator`.
   */
  trustProxy?: boolean;
}
