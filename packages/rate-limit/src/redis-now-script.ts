/**
 * The Lua lines both Redis scripts start with: `now` in ms, from ARGV[5] when the caller gives the
 * time, else from the Redis server's TIME (with effects replication, so replicas agree).
 */
export const redisNow = `local now
if ARGV[5] ~= '' then
  now = tonumber(ARGV[5])
else
  if redis.replicate_commands then redis.replicate_commands() end
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
`;
