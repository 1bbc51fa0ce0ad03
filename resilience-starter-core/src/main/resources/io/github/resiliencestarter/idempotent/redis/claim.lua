-- KEYS[1] record; ARGV: owner, fingerprint, name, lease ms, ttl ms.
-- Returns {1} claimed, {2} taken over (expired lease), or {0, field, value, ...} the live record.
-- One HGETALL answers a replay: the clock is read only to write a claim or to judge a lease.
local all = redis.call('HGETALL', KEYS[1])
local st, le
for i = 1, #all, 2 do
  if all[i] == 'st' then
    st = all[i + 1]
  elseif all[i] == 'le' then
    le = all[i + 1]
  end
end
if not st then
  local now = now_millis()
  local ttl = tonumber(ARGV[5])
  redis.call('HSET', KEYS[1], 'st', 'P', 'ow', ARGV[1], 'fp', ARGV[2], 'nm', ARGV[3],
    'le', now + tonumber(ARGV[4]), 'ex', now + ttl, 'ca', now)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {1}
end
if st == 'P' then
  local now = now_millis()
  if (tonumber(le) or 0) <= now then
    redis.call('HSET', KEYS[1], 'ow', ARGV[1], 'le', now + tonumber(ARGV[4]))
    return {2}
  end
end
table.insert(all, 1, 0)
return all
