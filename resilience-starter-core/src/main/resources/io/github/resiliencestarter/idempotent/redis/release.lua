-- KEYS[1] record; ARGV: owner. Returns 1 when deleted, 0 when the owner lost the claim.
if owned_by(ARGV[1]) then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
