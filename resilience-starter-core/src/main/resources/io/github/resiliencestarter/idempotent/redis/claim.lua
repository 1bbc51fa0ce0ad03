-- KEYS[1] record; ARGV: owner, lease ms, ttl ms, fingerprint, name (escaped).
-- Returns '1' when claimed, '2' when an expired lease with the same fingerprint was taken over,
-- 'W' when the key holds another type, else the live record (or a lapsed one of another payload).
local record = redis.pcall('GET', KEYS[1])
if type(record) == 'table' and record.err then
  return 'W'
end
local now = now_ms()
if not record then
  redis.call('SET', KEYS[1], 'P\n' .. ARGV[1] .. '\n' .. (now + tonumber(ARGV[2])) .. '\n' .. now .. '\n' .. ARGV[4]
    .. '\n' .. ARGV[5], 'PX', tonumber(ARGV[3]))
  return '1'
end
if string.sub(record, 1, 2) ~= 'P\n' then
  return record
end
local owner_end = string.find(record, '\n', 3, true)
local lease_end = owner_end and string.find(record, '\n', owner_end + 1, true)
local lease = lease_end and tonumber(string.sub(record, owner_end + 1, lease_end - 1))
if not lease or lease > now then
  return record
end
local rest = string.sub(record, lease_end + 1)
local created_end = string.find(rest, '\n', 1, true)
local fingerprint_end = created_end and string.find(rest, '\n', created_end + 1, true)
if not fingerprint_end or string.sub(rest, created_end + 1, fingerprint_end - 1) ~= ARGV[4] then
  -- another payload: the caller refuses it (422), the crashed owner's record stays
  return record
end
-- the new owner's record lives for a full time to live from now, as a fresh claim's does
redis.call('SET', KEYS[1], 'P\n' .. ARGV[1] .. '\n' .. (now + tonumber(ARGV[2])) .. '\n' .. rest, 'PX', tonumber(ARGV[3]))
return '2'
