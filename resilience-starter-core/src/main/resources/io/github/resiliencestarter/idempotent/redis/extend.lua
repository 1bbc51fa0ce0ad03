-- KEYS[1] record; ARGV: owner, lease ms. Returns 1 when extended, 0 when the owner lost the claim.
if owned_by(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'le', now_millis() + tonumber(ARGV[2]))
  return 1
end
return 0
