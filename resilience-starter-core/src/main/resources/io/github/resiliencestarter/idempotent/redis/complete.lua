-- KEYS[1] record; ARGV: owner, response, response type, ttl ms, '1' when a response is given, now ms.
-- Returns 1 when completed, 0 when the owner lost the claim (nothing written).
local kept = owned_by(ARGV[1])
if not kept then
  return 0
end
local ttl = tonumber(ARGV[4])
redis.call('SET', KEYS[1], 'C\n' .. (tonumber(ARGV[6]) + ttl) .. '\n' .. ARGV[3] .. '\n' .. ARGV[5] .. '\n' .. kept
  .. '\n' .. ARGV[2], 'PX', ttl)
return 1
