-- KEYS[1] record; ARGV: owner, lease ms, now ms. Returns 1 when extended, 0 when the owner lost the claim.
local kept = owned_by(ARGV[1])
if not kept then
  return 0
end
local lease = tonumber(ARGV[2])
redis.call('SET', KEYS[1], 'P\n' .. ARGV[1] .. '\n' .. (tonumber(ARGV[3]) + lease) .. '\n' .. kept, 'PX', lease)
return 1
