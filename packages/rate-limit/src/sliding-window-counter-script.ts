import { createHash } from 'node:crypto';
import { redisNow } from './redis-now-script.js';

/**
 * The Redis side of `algorithm: 'sliding-window-counter'` (see sliding-window-counter.ts for the
 * arithmetic): one string per key, `"<window index> <previous count> <current count>"`, read and
 * rewritten by one atomic script of at most three commands (`TIME`, `GET`, `SET … PX`; a refused
 * request skips the `SET`, an explicit clock skips `TIME`), so O(1) memory per key whatever `max`
 * is and one round trip per request. The key expires when it stops mattering: at the end of the
 * window after its current one. One key per limiter key, so it works on Redis Cluster as is.
 *
 * KEYS[1] the key; ARGV[1] windowMs; ARGV[2] max; ARGV[3] unused (the sliding log's member);
 * ARGV[4] the caller's deadline in Redis time (ms; -1: none), past which the request has been
 * given up and must not count; ARGV[5] the time in ms ('': the Redis server's TIME).
 * Returns { 1 counted / 0 refused / -1 stale, previous count, current count, the time used (ms) }.
 * The admission test is `fits` of sliding-window-counter.ts, the same products in doubles.
 */
export const slidingWindowCounterScript = `
${redisNow}local deadline = tonumber(ARGV[4])
if deadline >= 0 and now > deadline then return { -1, 0, 0, now } end
local windowMs = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local window = math.floor(now / windowMs)
local previous = 0
local current = 0
local state = redis.call('GET', KEYS[1])
if state then
  local at, p, c = string.match(state, '^(%d+) (%d+) (%d+)$')
  at = tonumber(at)
  if at == window then
    previous = tonumber(p)
    current = tonumber(c)
  elseif at == window - 1 then
    previous = tonumber(c)
  end
end
local elapsed = now - window * windowMs
if previous * (windowMs - elapsed) + (current + 1) * windowMs <= max * windowMs then
  current = current + 1
  redis.call('SET', KEYS[1], string.format('%d %d %d', window, previous, current), 'PX', 2 * windowMs - elapsed)
  return { 1, previous, current, now }
end
return { 0, previous, current, now }
`;

export const slidingWindowCounterSha = createHash('sha1').update(slidingWindowCounterScript).digest('hex');
