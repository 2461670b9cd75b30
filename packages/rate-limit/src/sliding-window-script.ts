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
 * ('' : the Redis server's TIME).
 * Returns { requests in the window with this one (-1: stale, nothing done), ms until the oldest
 * counted request leaves it, the time used (ms) }. A refused request is not recorded, as in MemoryStore.
 */
export const slidingWindowScript = `
${redisNow}local deadline = tonumber(ARGV[4])
if deadline >= 0 and now > deadline then return { -1, 0, now } end
local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local live = redis.call('ZCARD', KEYS[1])
if max < 0 or live < max then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local wait = window
if oldest[2] then wait = tonumber(oldest[2]) + window - now end
return { live + 1, wait, now }
`;

export const slidingWindowSha = sha1Hex(slidingWindowScript);
