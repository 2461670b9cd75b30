import { sha1Hex } from './digests.js';
import { redisNow } from './redis-now-script.js';

/**
 * The Redis side of `RedisStore`: the same sliding log as `MemoryStore`, as one sorted set per
 * key (score = request time in ms), run atomically as one script so that concurrent requests
 * from any number of processes are counted exactly. Time comes from the Redis server, so app
 * machines with skewed clocks still agree. The script touches exactly one key, so on Redis
 * Cluster it always runs on the one node that owns that key's slot.
 *
 * KEYS[1] the key's sorted set; ARGV[1] windowMs; ARGV[2] max (-1: no cap); ARGV[3] a unique member;
 * ARGV[4] the caller's deadline in Redis time (ms; -1: none): a command that runs after it has
 * already been given up by the caller (timed out) and must not count; ARGV[5] the time in ms
 * ('' : the Redis server's TIME); ARGV[6] the request's cost (absent: 1), recorded as that many
 * members (ARGV[3], then ARGV[3]/2, ARGV[3]/3, …); a cost of 0 records nothing but needs room for one;
 * ARGV[7] `blockDuration` in ms (absent: 0, no block) with KEYS[2] the key's block (a string: the
 * time in ms when it ends, expiring then): while it lasts every request is refused, and a refused
 * request starts one lasting until it would pass or `blockDuration`, whichever is later.
 * Returns { requests in the window with this one (-1: stale, nothing done), ms until the oldest
 * counted request leaves it (for a refused one: until it would pass), the time used (ms) }. A
 * refused request is not recorded, as in MemoryStore.
 */
export const slidingWindowScript = `
${redisNow}local deadline = tonumber(ARGV[4])
if deadline >= 0 and now > deadline then return { -1, 0, now } end
local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local block = tonumber(ARGV[7] or '0')
if block > 0 then
  local blocked = tonumber(redis.call('GET', KEYS[2]) or '0')
  if blocked > now then return { max + 1, blocked - now, now } end
end
local cost = tonumber(ARGV[6] or '1')
local need = math.max(cost, 1)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local live = redis.call('ZCARD', KEYS[1])
if max < 0 or live + need <= max then
  for i = 1, cost do
    local member = ARGV[3]
    if i > 1 then member = member .. '/' .. i end
    redis.call('ZADD', KEYS[1], now, member)
  end
  if cost > 0 then redis.call('PEXPIRE', KEYS[1], window) end
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = window
  if oldest[2] then wait = tonumber(oldest[2]) + window - now end
  return { live + cost, wait, now }
end
local leaving = live + need - max
local wait = window
if leaving <= live then
  local freeing = redis.call('ZRANGE', KEYS[1], leaving - 1, leaving - 1, 'WITHSCORES')
  if freeing[2] then wait = tonumber(freeing[2]) + window - now end
end
if block > 0 then
  wait = math.max(wait, block)
  redis.call('SET', KEYS[2], string.format('%d', now + wait), 'PX', wait)
end
return { math.max(live + need, max + 1), wait, now }
`;

export const slidingWindowSha = sha1Hex(slidingWindowScript);
