-- KEYS[1] record; ARGV: owner, fingerprint, name, lease ms, ttl ms.
-- Returns {1} claimed, {2} taken over (expired lease), or {0, field, value, ...} the live record.
local now = now_millis()
local lease = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
local st = redis.call('HGET', KEYS[1], 'st')
if not st then
  redis.call('HSET', KEYS[1], 'st', 'P', 'ow', ARGV[1], 'fp', ARGV[2], 'nm', ARGV[3],
    'le', now + lease, 'ex', now + ttl, 'ca', now)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {1}
end
if st == 'P' and (tonumber(redis.call('HGET', KEYS[1], 'le')) or 0) <= now then
  redis.call('HSET', KEYS[1], 'ow', ARGV[1], 'le', now + lease)
  return {2}
end
local all = redis.call('HGETALL', KEYS[1])
table.insert(all, 1, 0)
return all
