-- KEYS[1] record; ARGV: owner, response, response type, ttl ms, '1' when a response is given,
-- the claim's lines (created, fingerprint, name) or ''.
-- Returns 1 when completed, 0 when the owner lost the claim (nothing written).
local kept = owned_by(ARGV[1])
if not kept then
  -- the record is gone while its owner ran (evicted, or lost with a failed-over master) and nobody
  -- claimed since: the work ran, so its completion is written rather than letting a duplicate run it again
  if ARGV[6] == '' or redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
  end
  kept = ARGV[6]
end
local ttl = tonumber(ARGV[4])
redis.call('SET', KEYS[1], 'C\n' .. (now_ms() + ttl) .. '\n' .. ARGV[3] .. '\n' .. ARGV[5] .. '\n' .. kept
  .. '\n' .. ARGV[2], 'PX', ttl)
return 1
