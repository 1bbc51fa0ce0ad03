-- KEYS[1] record; ARGV: owner, fingerprint, name (escaped), lease ms, ttl ms.
-- Returns '1' claimed, '2' taken over (expired lease), 'X' an unreadable record, or the live record.
-- One GET answers a replay: the clock is read only to write a claim or to judge a lease.
local record = read_record()
if not record then
  local now = now_millis()
  local ttl = tonumber(ARGV[5])
  redis.call('SET', KEYS[1], 'P\n' .. ARGV[1] .. '\n' .. (now + tonumber(ARGV[4])) .. '\n' .. (now + ttl)
    .. '\n' .. now .. '\n' .. ARGV[2] .. '\n' .. ARGV[3], 'PX', ttl)
  return '1'
end
local state = string.sub(record, 1, 2)
if state == 'C\n' then
  return record
end
local _, lease, tail = in_progress(record)
if not lease then
  return 'X'
end
local now = now_millis()
if lease <= now then
  redis.call('SET', KEYS[1], 'P\n' .. ARGV[1] .. '\n' .. (now + tonumber(ARGV[4])) .. '\n' .. tail, 'KEEPTTL')
  return '2'
end
return record
