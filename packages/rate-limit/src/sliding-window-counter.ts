import type { RateLimitHit } from './rate-limit-store.js';

/**
 * The weighted two-window counter (`algorithm: 'sliding-window-counter'`), as pure arithmetic that
 * `MemoryStore` runs in JavaScript and `RedisStore`'s script runs in Lua with the same formula.
 *
 * Time is cut into fixed windows aligned on multiples of `windowMs` since the Unix epoch. A key
 * keeps two counts: `previous` (requests counted in the window before the current one) and
 * `current` (requests counted in the current one). At `elapsed` ms into the current window the
 * requests of the last `windowMs` are estimated as if the previous window's had been spread
 * evenly over it:
 *
 *     estimate = previous × (windowMs − elapsed) / windowMs + current
 *
 * A request is counted when the estimate with it stays within `max`; a refused one is not counted
 * (as with the sliding log). The estimate is continuous in time (at a window boundary `current`
 * becomes `previous` with weight 1), so it only ever falls while no request comes, and the time
 * when a request will pass again can be solved exactly (`nextPassAt`).
 *
 * Error bound (see the rate-limiting guide for the derivation): at most `max` requests are counted
 * in any aligned window, so at most `(n + 1) × max` in any `n` windows; in one sliding window of
 * `windowMs` at most `max + previous × elapsed / windowMs`, i.e. fewer than `2 × max`, the excess
 * needing the previous window's requests bunched at its end; and a request may be refused while
 * the exact log would count it by at most `previous × (windowMs − elapsed) / windowMs` requests
 * (the previous window's requests bunched at its start).
 */

/** What a key holds: the index of its current window and the two counts. */
export interface WindowCounts {
  /** `floor(time / windowMs)` of the window `current` belongs to. */
  window: number;
  previous: number;
  current: number;
}

/**
 * Moves `counts` to the window of `now` (the current count becomes the previous one, or both are
 * dropped after a whole idle window). Returns the ms elapsed in the window of `now`.
 */
export function rollWindow(counts: WindowCounts, now: number, windowMs: number): number {
  const window = Math.floor(now / windowMs);
  if (counts.window !== window) {
    counts.previous = counts.window === window - 1 ? counts.current : 0;
    counts.current = 0;
    counts.window = window;
  }
  return now - window * windowMs;
}

/**
 * Whether a request needing `need` units fits: `previous × (windowMs − elapsed) / windowMs + current + need ≤ max`,
 * multiplied out so that no division rounds (the Lua script compares the same products). `need`
 * is the request's cost, at least 1 (a free request still needs room for one: see `roomNeeded`).
 */
export function fits(previous: number, current: number, elapsed: number, windowMs: number, max: number, need = 1): boolean {
  return previous * (windowMs - elapsed) + (current + need) * windowMs <= max * windowMs;
}

/** The room a request of `cost` needs to pass: its cost, and 1 for a free (cost 0) one, refused once the quota is spent. */
export function roomNeeded(cost: number): number {
  return cost > 0 ? cost : 1;
}

/** The estimate rounded up: what the store reports as the requests in the window. */
export function estimatedCount(previous: number, current: number, elapsed: number, windowMs: number): number {
  return Math.ceil((previous * (windowMs - elapsed)) / windowMs) + current;
}

/**
 * The first time (ms) at which the estimate, with no further request, is at most `target`: when
 * `target` is `max − 1` that is when a request passes again; when it is the reported count − 1,
 * when one more slot frees. `windowStart` is the start of the current window. A negative target
 * is never reached (`max` 0): the answer is then one window from now, as the sliding log says.
 */
export function nextPassAt(counts: WindowCounts, windowStart: number, now: number, windowMs: number, target: number): number {
  if (target < 0) return now + windowMs;
  const { previous, current } = counts;
  // in the current window: previous × (1 − f) + current ≤ target
  if (current <= target) {
    if (previous === 0) return now;
    const at = windowStart + windowMs - Math.floor(((target - current) * windowMs) / previous);
    return Math.max(now, at);
  }
  // in the next one, where the current count is the previous: current × (1 − f) ≤ target
  return Math.max(now, windowStart + 2 * windowMs - Math.floor((target * windowMs) / current));
}

/**
 * Counts one request against `counts` (mutated) at `now` and returns the count to report and when
 * a slot frees: the shared decision of both stores. The request weighs `cost` units (default 1). A
 * refused request reports `max + 1`, like the sliding log, and the time when it would pass again.
 */
export function countRequest(counts: WindowCounts, now: number, windowMs: number, max: number, cost = 1): RateLimitHit {
  const elapsed = rollWindow(counts, now, windowMs);
  const counted = fits(counts.previous, counts.current, elapsed, windowMs, max, roomNeeded(cost));
  if (counted) counts.current += cost;
  return settle(counts, counted, now, elapsed, windowMs, max, cost);
}

/**
 * The report for a request already decided (`counted`: `counts.current` includes it): the count
 * and the reset time, as `countRequest` returns them. `RedisStore` calls it with the counts and the
 * decision its script returned.
 */
export function settle(
  counts: WindowCounts,
  counted: boolean,
  now: number,
  elapsed: number,
  windowMs: number,
  max: number,
  cost = 1,
): RateLimitHit {
  const windowStart = now - elapsed;
  if (counted) {
    const count = Math.max(cost > 0 ? 1 : 0, Math.min(max, estimatedCount(counts.previous, counts.current, elapsed, windowMs)));
    return { count, resetTime: nextPassAt(counts, windowStart, now, windowMs, count - 1) };
  }
  // refused: passes again once the estimate leaves room for this request's cost (never when the cost is above max)
  return { count: max + 1, resetTime: nextPassAt(counts, windowStart, now, windowMs, max - roomNeeded(cost)) };
}
