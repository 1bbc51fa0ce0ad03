-- Shared by every script of RedisIdempotencyStore; prepended when the scripts are loaded.
-- A record is one string (RedisRecordFormat holds the Java side), lines separated by '\n':
--   in progress: P, owner, lease expiry, created, fingerprint, name
--   completed:   C, record expiry, response type, 1 or 0 (a response follows), created,
--                fingerprint, name, then the response itself (any text, to the end)
-- An in-progress record lives as long as its lease (the key's TTL), so Redis' own clock ends it.
-- The scripts read only the first lines of a record; the rest they copy.

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
