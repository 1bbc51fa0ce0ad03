-- Shared by every script of RedisIdempotencyStore; prepended when the scripts are loaded.
-- A record is one string (RedisRecordFormat holds the Java side), lines separated by '\n':
--   in progress: P, owner, lease expiry, record expiry, created, fingerprint, name
--   completed:   C, record expiry, response type, 1 or 0 (a response follows), created,
--                fingerprint, name, then the response itself (any text, to the end)
-- One string rather than a hash: a body over 64 bytes turns a hash into a hash table, which
-- tripled the memory of a record. The scripts read only the first lines; the tail they copy.

-- Redis' own clock in epoch milliseconds, so nodes with skewed clocks agree on leases.
local function now_millis()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The record's text; false when absent; 'X' when the key holds something else (another type).
local function read_record()
  local value = redis.pcall('GET', KEYS[1])
  if type(value) == 'table' and value.err then
    return 'X'
  end
  return value
end

-- The fields of an in-progress record: owner, lease expiry, and the text from the record expiry on.
local function in_progress(record)
  if not record or string.sub(record, 1, 2) ~= 'P\n' then
    return nil
  end
  local owner_end = string.find(record, '\n', 3, true)
  local lease_end = owner_end and string.find(record, '\n', owner_end + 1, true)
  if not lease_end then
    return nil
  end
  return string.sub(record, 3, owner_end - 1), tonumber(string.sub(record, owner_end + 1, lease_end - 1)),
    string.sub(record, lease_end + 1)
end

-- The in-progress record held by the given owner: its lease tail (from the record expiry on), or nil.
local function owned_by(owner)
  local holder, _, tail = in_progress(read_record())
  if holder == owner then
    return tail
  end
  return nil
end
