import { sha1Hex } from './digests.js';
import { redisNow } from './redis-now-script.js';

/**
 * The Redis side of `algorithm: 'sliding-window-counter'` (see sliding-window-counter.ts for the
 * arithmetic): one string per key, `"<window index> <previous count> <current count>"`, read and
 * rewritten by one atomic script. Per request Redis runs `EVALSHA` + `GET` + `SET … PX` (a refused
 * request skips the `SET`): three commands, one round trip, O(1) memory per key whatever `max` is.
 * The time is given by the caller (`ARGV[5]`): RedisStore's estimate of the Redis server's clock,
 * which it learns with `TIME` (`ARGV[5]` empty) on its first call, after a failure and every 10 s.
 * The key expires when it stops mattering: at the end of the window after its current one. One
 * key per limiter key, so it works on Redis Cluster as is.
 *
 * Several processes estimate the Redis clock each with its own small error, so a key may already
 * be in a later window than the caller's time says: the request is then counted at the start of
 * that window (a key's time never goes back).
 *
 * KEYS[1] the key; ARGV[1] windowMs; ARGV[2] max; ARGV[3] unused (the sliding log's member);
 * ARGV[4] the caller's deadline in Redis time (ms; -1: none), past which the request has been
 * given up and must not count; ARGV[5] the time in ms ('': the Redis server's TIME); ARGV[6] the
 * request's cost (absent: 1; a cost of 0 counts nothing but needs room for one); ARGV[7]
 * `blockDuration` in ms (absent: 0, no block) with KEYS[2] the key's block (the time in ms when it
 * ends, expiring then): while it lasts every request is refused; a refused request starts one
 * lasting until it would pass (`nextPassAt` of sliding-window-counter.ts, in Lua) or
 * `blockDuration`, whichever is later. A refusal by a block is the reply
 * { 0, previous, current, time, window, the block's end (ms) }.
 * Returns { 1 counted / 0 refused / -1 stale, previous count, current count, the time read or
 * given (ms), the window index counted in }; only the first three when the caller gave the time
 * and the window is the one of that time (the hot path: the caller knows both, and each integer of
 * a reply costs the client's RESP parser a measurable share of the call).
 * The admission test is `fits` of sliding-window-counter.ts, the same products in doubles.
 */
export const slidingWindowCounterScript = `
${redisNow}local deadline = tonumber(ARGV[4])
if deadline >= 0 and now > deadline then return { -1, 0, 0, now, 0 } end
local windowMs = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local block = tonumber(ARGV[7] or '0')
if block > 0 then
  local blocked = tonumber(redis.call('GET', KEYS[2]) or '0')
  if blocked > now then return { 0, 0, 0, now, math.floor(now / windowMs), blocked } end
end
local window = math.floor(now / windowMs)
local previous = 0
local current = 0
local state = redis.call('GET', KEYS[1])
if state then
  local at, p, c = string.match(state, '^(%d+) (%d+) (%d+)$')
  at = tonumber(at)
  if at and at >= window then
    window = at
    previous = tonumber(p)
    current = tonumber(c)
  elseif at == window - 1 then
    previous = tonumber(c)
  end
end
local elapsed = math.max(0, now - window * windowMs)
local cost = tonumber(ARGV[6] or '1')
local counted = 0
if previous * (windowMs - elapsed) + (current + math.max(cost, 1)) * windowMs <= max * windowMs then
  counted = 1
  current = current + cost
  redis.call('SET', KEYS[1], string.format('%d %d %d', window, previous, current), 'PX', 2 * windowMs - elapsed)
elseif block > 0 then
  -- when this request would pass (target: room for its cost), as nextPassAt computes it
  local start = window * windowMs
  local at = start + elapsed
  local target = max - math.max(cost, 1)
  local pass = at + windowMs
  if target >= 0 and current <= target then
    pass = at
    if previous > 0 then pass = math.max(at, start + windowMs - math.floor((target - current) * windowMs / previous)) end
  elseif target >= 0 then
    pass = math.max(at, start + 2 * windowMs - math.floor(target * windowMs / current))
  end
  local ends = math.max(pass, at + block)
  redis.call('SET', KEYS[2], string.format('%d', ends), 'PX', ends - at)
  return { 0, previous, current, now, window, ends }
end
if ARGV[5] ~= '' and now >= window * windowMs then return { counted, previous, current } end
return { counted, previous, current, now, window }
`;

export const slidingWindowCounterSha = sha1Hex(slidingWindowCounterScript);

/**
 * Takes back one request that the counter script counted after RedisStore had given up on it
 * (its reply came after `timeoutMs`): the request was answered without it, so it must not count.
 * Sent on the same connection when that late reply arrives, so it runs after the call it undoes.
 * KEYS[1] the key; ARGV[1] the window index the request was counted in; ARGV[2] the units to take
 * back (absent: 1). Returns 1 when taken back.
 */
export const counterTakeBackScript = `
local state = redis.call('GET', KEYS[1])
if not state then return 0 end
local at, p, c = string.match(state, '^(%d+) (%d+) (%d+)$')
at = tonumber(at)
p = tonumber(p)
c = tonumber(c)
local window = tonumber(ARGV[1])
local units = tonumber(ARGV[2] or '1')
if at == window and c > 0 then
  c = math.max(0, c - units)
elseif at == window + 1 and p > 0 then
  p = math.max(0, p - units)
else
  return 0
end
redis.call('SET', KEYS[1], string.format('%d %d %d', at, p, c), 'KEEPTTL')
return 1
`;

export const counterTakeBackSha = sha1Hex(counterTakeBackScript);
