-- Shared by every script of RedisIdempotencyStore; prepended when the scripts are loaded.
-- A record is one string (RedisRecordFormat holds the Java side), lines separated by '\n':
--   in progress: P, owner, lease expiry, created, fingerprint, name
--   completed:   C, record expiry, response type, 1 or 0 (a response follows), created,
--                fingerprint, name, then the response itself (any text, to the end)
-- Every record lives for its time to live (the key's TTL). An in-progress record's lease expiry is
-- a time on Redis' own clock (TIME), so every node agrees when a crashed owner's claim may be taken
-- over, and the record outlives its lease: a takeover still compares the fingerprint.
-- The scripts read only the first lines of a record; the rest they copy.

-- Redis' clock, in epoch milliseconds.
local function now_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- The fields of the in-progress record held by the given owner: the text after its lease line, or nil.
local function owned_by(owner)
  local record = redis.pcall('GET', KEYS[1])
  if type(record) ~= 'string' or string.sub(record, 1, 2) ~= 'P\n' then
    return nil
  end
  local owner_end = string.find(record, '\n', 3, true)
  if not owner_end or string.sub(record, 3, owner_end - 1) ~= owner then
    return nil
  end
  local lease_end = string.find(record, '\n', owner_end + 1, true)
  return lease_end and string.sub(record, lease_end + 1)
end
