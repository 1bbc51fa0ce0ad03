-- KEYS[1] record; ARGV: owner, response, response type, ttl ms, '1' when a response is given, now ms,
-- the claim's lines (created, fingerprint, name) or '' .
-- Returns 1 when completed, 0 when the owner lost the claim (nothing written).
local kept = owned_by(ARGV[1])
if not kept then
  -- the key is gone: the owner's lease ran out while it could not reach Redis, and nobody claimed
  -- since; the work ran, so its completion is written rather than letting a duplicate run it again
  if ARGV[7] == '' or redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
  end
  kept = ARGV[7]
end
local ttl = tonumber(ARGV[4])
redis.call('SET', KEYS[1], 'C\n' .. (tonumber(ARGV[6]) + ttl) .. '\n' .. ARGV[3] .. '\n' .. ARGV[5] .. '\n' .. kept
  .. '\n' .. ARGV[2], 'PX', ttl)
return 1
