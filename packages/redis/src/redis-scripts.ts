// The Lua scripts behind the Redis store. Each runs atomically on the server, so a scope's index never
// disagrees with its entries and a rate-limit window always gets its expiry. Every key a script touches shares
// the scope's hash tag, so the scripts also run on a Redis Cluster.

/**
 * Writes an entry and records it in its scope's index. The index lives at least as long as its longest-lived
 * entry, and a few of its members are checked on each write so that names of expired entries do not pile up.
 * With `NX`, writes only when the entry is absent (a lock), and returns the value it holds when it is not.
 * KEYS: entry, index. ARGV: value, time to live in ms (empty: none), `NX` or nothing.
 */
export const SET_SCRIPT = `
local ttl = tonumber(ARGV[2])
if ARGV[3] == 'NX' then
  local held = redis.call('GET', KEYS[1])
  if held then return held end
end
if ttl then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
local fresh = redis.call('SADD', KEYS[2], KEYS[1]) == 1 and redis.call('SCARD', KEYS[2]) == 1
local left = redis.call('PTTL', KEYS[2])
if not ttl then
  if left >= 0 then redis.call('PERSIST', KEYS[2]) end
elseif (left >= 0 and left < ttl) or (left == -1 and fresh) then
  redis.call('PEXPIRE', KEYS[2], ttl)
end
for _, member in ipairs(redis.call('SRANDMEMBER', KEYS[2], 3)) do
  if redis.call('EXISTS', member) == 0 then redis.call('SREM', KEYS[2], member) end
end
return false
`;

/** Removes an entry and its name in the index. KEYS: entry, index. */
export const DELETE_SCRIPT = `
redis.call('UNLINK', KEYS[1])
redis.call('SREM', KEYS[2], KEYS[1])
return 1
`;

/** Removes an entry and its name in the index while it holds the value. Returns 1 when it removed. KEYS: entry,
 * index. ARGV: value. */
export const DELETE_IF_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('UNLINK', KEYS[1])
redis.call('SREM', KEYS[2], KEYS[1])
return 1
`;

/** Removes every entry of a scope, then its index. KEYS: index. */
export const CLEAR_SCRIPT = `
local members = redis.call('SMEMBERS', KEYS[1])
for i = 1, #members, 500 do
  redis.call('UNLINK', unpack(members, i, math.min(i + 499, #members)))
end
redis.call('UNLINK', KEYS[1])
return #members
`;

/**
 * Counts a call in a fixed window that starts with the key's first call. Returns the count and the window's
 * remaining milliseconds by the server's clock. KEYS: counter. ARGV: window in ms.
 */
export const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return { count, left }
`;
