/**
 * The scripts that read a record's versions. They only read; they are scripts because the
 * retention must be judged by the Redis clock (TIME), in the same call as the read.
 */
import { luaScript, NOW_US, SCORE } from './scripts.js';

/**
 * Lua: the lowest score (µs) of KEYS[1] still within the retention `keep` and `max_age_ms`
 * (each '' for no limit). Writes prune to it; reads apply it too, so a version past its age is
 * never served before the next write prunes it, nor one past the count after `keep` shrank.
 */
const RETAINED_FLOOR = `
local function retained_floor(keep, max_age_ms)
  local floor = -math.huge
  if keep ~= '' then
    local last = tonumber(keep) - 1
    local oldest_kept = redis.call('ZREVRANGE', KEYS[1], last, last, 'WITHSCORES')
    if oldest_kept[2] then floor = tonumber(oldest_kept[2]) end
  end
  if max_age_ms ~= '' then floor = math.max(floor, now_us() - tonumber(max_age_ms) * 1000) end
  return floor
end
`;

/**
 * KEYS[1]: the versions' sorted set. ARGV[1], ARGV[2]: the highest and lowest scores wanted,
 * inclusive ('' for no bound). ARGV[3]: at most this many ('' for all). ARGV[4], ARGV[5]: the
 * retention. Replies `[id, score, id, score, ...]`, newest first.
 */
export const listVersions = luaScript(`${NOW_US}${SCORE}${RETAINED_FLOOR}
local low = math.max(tonumber(ARGV[2]) or -math.huge, retained_floor(ARGV[4], ARGV[5]))
local high = ARGV[1] == '' and '+inf' or ARGV[1]
local command = {'ZREVRANGEBYSCORE', KEYS[1], high, low == -math.huge and '-inf' or score(math.ceil(low)), 'WITHSCORES'}
if ARGV[3] ~= '' then
  table.insert(command, 'LIMIT')
  table.insert(command, '0')
  table.insert(command, ARGV[3])
end
return redis.call(unpack(command))
`);

/**
 * KEYS[1], KEYS[2]: the versions' sorted set and hash. ARGV[1]: the version id. ARGV[2],
 * ARGV[3]: the retention. Replies the version's JSON, or nil when it is not retained.
 */
export const readVersion = luaScript(`${NOW_US}${RETAINED_FLOOR}
local micros = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not micros or tonumber(micros) < retained_floor(ARGV[2], ARGV[3]) then return false end
return redis.call('HGET', KEYS[2], ARGV[1])
`);
