-- KEYS[1] record; ARGV: owner, response, response type, ttl ms, '1' when a response is given.
-- Returns 1 when completed, 0 when the owner lost the claim (nothing written).
if not owned_by(ARGV[1]) then
  return 0
end
local now = now_millis()
local ttl = tonumber(ARGV[4])
if ARGV[5] == '1' then
  redis.call('HSET', KEYS[1], 'st', 'C', 'rt', ARGV[3], 'ex', now + ttl, 'rs', ARGV[2])
else
  redis.call('HSET', KEYS[1], 'st', 'C', 'rt', ARGV[3], 'ex', now + ttl)
  redis.call('HDEL', KEYS[1], 'rs')
end
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
