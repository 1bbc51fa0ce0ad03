-- KEYS[1] record; ARGV: owner, lease ms. Returns 1 when extended, 0 when the owner lost the claim.
local kept = owned_by(ARGV[1])
if not kept then
  return 0
end
redis.call('SET', KEYS[1], 'P\n' .. ARGV[1] .. '\n' .. (now_ms() + tonumber(ARGV[2])) .. '\n' .. kept, 'KEEPTTL')
return 1
