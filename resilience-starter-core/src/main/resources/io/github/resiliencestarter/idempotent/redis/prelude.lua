-- Shared by every script of RedisIdempotencyStore; prepended when the scripts are loaded.
-- A record is one hash: st (P = in progress, C = completed), ow (owner token), fp (fingerprint),
-- nm (operation name), le (lease expiry), ex (record expiry), ca (created), rs (response), rt (response type).

-- Redis' own clock in epoch milliseconds, so nodes with skewed clocks agree on leases.
local function now_millis()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Whether the record is in progress and held by the given owner token (one read of both fields).
local function owned_by(owner)
  local state = redis.call('HMGET', KEYS[1], 'st', 'ow')
  return state[1] == 'P' and state[2] == owner
end
