-- KEYS[1] record; ARGV: owner, response, response type, ttl ms, '1' when a response is given.
-- Returns 1 when completed, 0 when the owner lost the claim (nothing written).
local tail = owned_by(ARGV[1])
if not tail then
  return 0
end
-- the tail starts with the old record expiry; created, fingerprint and name follow unchanged
local kept = string.sub(tail, string.find(tail, '\n', 1, true) + 1)
local ttl = tonumber(ARGV[4])
redis.call('SET', KEYS[1], 'C\n' .. (now_millis() + ttl) .. '\n' .. ARGV[3] .. '\n' .. ARGV[5] .. '\n' .. kept
  .. '\n' .. ARGV[2], 'PX', ttl)
return 1
