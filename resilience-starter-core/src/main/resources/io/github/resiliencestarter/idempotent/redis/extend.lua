-- KEYS[1] record; ARGV: owner, lease ms. Returns 1 when extended, 0 when the owner lost the claim.
local kept = owned_by(ARGV[1])
if not kept then
  return 0
end
local lease = tonumber(ARGV[2])
-- the record keeps its time to live, but never ends before the lease it now holds
local ttl = math.max(redis.call('PTTL', KEYS[1]), lease)
redis.call('SET', KEYS[1], 'P\n' .. ARGV[1] .. '\n' .. (now_ms() + lease) .. '\n' .. kept, 'PX', ttl)
return 1
