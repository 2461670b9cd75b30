import type { KilnRequest } from '@kiln/core';

/**
 * Which rate-limit header fields a limiter writes:
 * - `true` (default): the three fields `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (Unix seconds);
 * - `'draft-6'`: the same three as the IETF draft 6 defines them (`RateLimit-Reset` in seconds
 *   from now) plus `RateLimit-Policy: <max>;w=<window s>`;
 * - `'draft-7'`: one `RateLimit: limit=…, remaining=…, reset=…` field plus `RateLimit-Policy`;
 * - `'draft-8'`: the structured fields `RateLimit-Policy: "<name>";q=<max>;w=<s>` and
 *   `RateLimit: "<name>";r=<remaining>;t=<s>`; stacked limiters each add a list member;
 * - `false`: none.
 */
export type StandardHeaders = boolean | 'draft-6' | 'draft-7' | 'draft-8';

export const standardHeaderModes: readonly unknown[] = [true, false, 'draft-6', 'draft-7', 'draft-8'];

export interface HeaderSettings {
  standardHeaders: StandardHeaders;
  legacyHeaders: boolean;
  name: string;
  max: number;
  windowMs: number;
}

/** Writes the headers of one counted request: `count` requests in the window, `resetTime` (ms) when a slot frees, `now` (ms). */
export type HeaderWriter = (req: KilnRequest, count: number, resetTime: number, now: number) => void;

/** The draft-8 list members recorded so far on one request, so that stacked limiters add rather than replace. */
interface Draft8Lists {
  policy: string;
  limit: string;
}

// Symbol.for: two copies of the package in one app still share the lists.
const kDraft8 = Symbol.for('@kiln/rate-limit:draft-8');

/** The default `name`: what the limit is, e.g. `100-in-60s`. */
export function defaultPolicyName(max: number, windowMs: number): string {
  return `${max}-in-${Math.ceil(windowMs / 1000)}s`;
}

/** The default `name` of a limiter whose `max` is a function of the request: the window alone, e.g. `tiered-in-60s`. */
export function defaultTieredPolicyName(windowMs: number): string {
  return `tiered-in-${Math.ceil(windowMs / 1000)}s`;
}

/** A `name` that fits in a structured-field string without escaping: printable ASCII, no `"` or `\`. */
export function isPolicyName(name: unknown): name is string {
  return typeof name === 'string' && /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(name);
}

/** Compiles the header work of one limiter once; `undefined` when it writes no header at all. */
export function headerWriter(settings: HeaderSettings): HeaderWriter | undefined {
  const { standardHeaders, legacyHeaders, max } = settings;
  const limitText = String(max);
  const windowSeconds = Math.ceil(settings.windowMs / 1000);
  const remainingOf = (count: number) => (count >= max ? '0' : String(max - count));
  const secondsUntil = (resetTime: number, now: number) => Math.max(0, Math.ceil((resetTime - now) / 1000));
  const policy = `${max};w=${windowSeconds}`;
  const quoted = `"${settings.name}"`;
  const policyMember = `${quoted};q=${max};w=${windowSeconds}`;

  let standard: HeaderWriter | undefined;
  if (standardHeaders === true) {
    // hot path: the three headers, no allocation beyond their strings
    standard = (req, count, resetTime) => {
      req.setResponseHeader('RateLimit-Limit', limitText);
      req.setResponseHeader('RateLimit-Remaining', remainingOf(count));
      req.setResponseHeader('RateLimit-Reset', String(Math.ceil(resetTime / 1000)));
    };
  } else if (standardHeaders === 'draft-6') {
    standard = (req, count, resetTime, now) => {
      req.setResponseHeader('RateLimit-Policy', policy);
      req.setResponseHeader('RateLimit-Limit', limitText);
      req.setResponseHeader('RateLimit-Remaining', remainingOf(count));
      req.setResponseHeader('RateLimit-Reset', String(secondsUntil(resetTime, now)));
    };
  } else if (standardHeaders === 'draft-7') {
    standard = (req, count, resetTime, now) => {
      req.setResponseHeader('RateLimit-Policy', policy);
      req.setResponseHeader('RateLimit', `limit=${limitText}, remaining=${remainingOf(count)}, reset=${secondsUntil(resetTime, now)}`);
    };
  } else if (standardHeaders === 'draft-8') {
    standard = (req, count, resetTime, now) => {
      const member = `${quoted};r=${remainingOf(count)};t=${secondsUntil(resetTime, now)}`;
      const lists = (req as unknown as Record<symbol, Draft8Lists | undefined>)[kDraft8];
      let policyList = policyMember;
      let limitList = member;
      if (lists === undefined) {
        (req as unknown as Record<symbol, Draft8Lists>)[kDraft8] = { policy: policyMember, limit: member };
      } else {
        // an outer limiter already spoke on this request: both stay, outer first
        policyList = lists.policy = `${lists.policy}, ${policyMember}`;
        limitList = lists.limit = `${lists.limit}, ${member}`;
      }
      req.setResponseHeader('RateLimit-Policy', policyList);
      req.setResponseHeader('RateLimit', limitList);
    };
  }

  if (!legacyHeaders) return standard;
  const legacy: HeaderWriter = (req, count, resetTime) => {
    req.setResponseHeader('X-RateLimit-Limit', limitText);
    req.setResponseHeader('X-RateLimit-Remaining', remainingOf(count));
    req.setResponseHeader('X-RateLimit-Reset', String(Math.ceil(resetTime / 1000)));
  };
  if (standard === undefined) return legacy;
  const both = standard;
  return (req, count, resetTime, now) => {
    both(req, count, resetTime, now);
    legacy(req, count, resetTime, now);
  };
}
