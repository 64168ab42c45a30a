/**
 * The store's compare-and-set scripts (one that also keeps the written record as a version),
 * and how scripts are called: by SHA; a server that lacks one (first call, restart,
 * failover, SCRIPT FLUSH) answers NOSCRIPT, and the call is repeated with EVAL, which runs it
 * and caches it on that very node.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './client.js';
import { coalesceTick } from './coalesce.js';
import { within } from './deadline.js';
import { isNoScript } from './errors.js';
import { sendPlain } from './plain-command.js';

export interface LuaScript {
  readonly source: string;
  /** SHA-1 of `source`: the name EVALSHA calls it by. */
  readonly sha: string;
}

/** A script and its SHA. */
export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/*
 * The replies of the compare-and-set scripts: a status number, or, for a conflict that carries
 * the current record, a table of the status, the version and the record's JSON. A number, not
 * a table of one: a script's table reply is built in Lua and converted, about a tenth of
 * redis-server's CPU for the whole write (`bench/scripts/redis-script-cost.sh`).
 */

/** Reply of `compareAndSet`: written (or already written by this very call). */
export const WRITTEN = 1;
/**
 * Reply of `compareAndSet`: the version moved; nothing was written. The reply carries the
 * current version and record JSON (none when the key holds no record), so the caller re-runs
 * its transform without reading again.
 */
export const CONFLICT = 0;
/** Reply of `compareAndSet`: the key holds a hash that DataDriver did not write. */
export const FOREIGN = 2;
/** Reply of `compareAndSetKeepingVersion`: a versions key holds a value DataDriver did not write. */
export const FOREIGN_VERSIONS = 3;

/**
 * Lua: the Redis server's clock in microseconds. `TIME` in a script that writes needs effects
 * replication, the default since Redis 5.0 and the only mode since 7.0.
 */
export const NOW_US = `
local function now_us()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end
`;

/**
 * Lua: a score as Redis must receive it. Scores are microseconds since the epoch (about 1.8e15,
 * exact in a double); Lua's own number-to-string keeps only 14 digits.
 */
export const SCORE = `
local function score(micros)
  return string.format('%.0f', micros)
end
`;

/**
 * Lua: keeps the record just written as version ARGV[2] of KEYS[2] (its sorted set) and KEYS[3]
 * (its hash), then prunes by count ARGV[4] and age ARGV[5] (ms), each '' for no limit.
 *
 * A version's time is the server's clock at the commit, raised to 1 µs after the key's newest
 * version when the clock reads earlier (stepped back, or another node's clock after a
 * failover), so newest-first by time is also the order of the commits. With an age limit both
 * keys expire when the newest version ages out: a history nobody writes to any more goes too.
 */
const KEEP_VERSION = `
local function drop(ids)
  for first = 1, #ids, 1000 do
    local chunk = {unpack(ids, first, math.min(first + 999, #ids))}
    redis.call('ZREM', KEYS[2], unpack(chunk))
    redis.call('HDEL', KEYS[3], unpack(chunk))
  end
end

local function keep_version()
  local time = now_us()
  local newest = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  if newest[2] and tonumber(newest[2]) >= time then time = tonumber(newest[2]) + 1 end
  redis.call('ZADD', KEYS[2], score(time), ARGV[2])
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
  if ARGV[4] ~= '' then
    drop(redis.call('ZRANGE', KEYS[2], 0, -(tonumber(ARGV[4]) + 1)))
  end
  if ARGV[5] == '' then
    redis.call('PERSIST', KEYS[2])
    redis.call('PERSIST', KEYS[3])
    return
  end
  local max_age_us = tonumber(ARGV[5]) * 1000
  drop(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. score(time - max_age_us)))
  local expiry = score(math.floor(time / 1000) + tonumber(ARGV[5]) + 1)
  redis.call('PEXPIREAT', KEYS[2], expiry)
  redis.call('PEXPIREAT', KEYS[3], expiry)
end

local function foreign_versions()
  local index = redis.call('TYPE', KEYS[2]).ok
  local records = redis.call('TYPE', KEYS[3]).ok
  return (index ~= 'zset' and index ~= 'none') or (records ~= 'hash' and records ~= 'none')
end
`;

/**
 * Lua: the check both compare-and-sets start with, and a delete. KEYS[1]: the record's hash.
 * ARGV[1]: the version the caller saw ('' for no record). ARGV[2]: the caller's new version,
 * new per attempt. ARGV[3]: the record's JSON, or '' to delete it.
 *
 * Versions are unique ids (`nextVersionId`: a random prefix per process, then a counter),
 * never a count per key, so a record deleted and created again cannot match a version seen
 * before the delete. A version equal to ARGV[2] means this very write already landed and
 * ioredis resent it after a reconnect: it answers written, and nothing runs twice (its version
 * was kept the first time). A moved version answers with the current version and record, so
 * the caller needs no read. The record is read only for that answer: a write whose version
 * matches never copies the stored record into Lua.
 */
const CHECK_VERSION = `
local version = redis.call('HGET', KEYS[1], 'version')
if version == ARGV[2] then return ${WRITTEN} end
if not version then
  if redis.call('EXISTS', KEYS[1]) == 1 then return ${FOREIGN} end
  if ARGV[1] ~= '' then return ${CONFLICT} end
elseif version ~= ARGV[1] then
  local record = redis.call('HGET', KEYS[1], 'record')
  if not record then return ${FOREIGN} end
  return {${CONFLICT}, version, record}
end
if ARGV[3] == '' then
  redis.call('DEL', KEYS[1])
  return ${WRITTEN}
end
`;

/**
 * The compare-and-set of a record (`CHECK_VERSION`). A script of its own, not the one that
 * keeps versions with a branch: each run of a script defines its local functions anew, and
 * the five that keeping a version needs cost every write that keeps none.
 */
export const compareAndSet = luaScript(`${CHECK_VERSION}
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])
return ${WRITTEN}
`);

/**
 * The compare-and-set of a record that also keeps it as a version: `compareAndSet`'s KEYS and
 * ARGV, then KEYS[2] and KEYS[3], the versions' sorted set and hash (`versionKeys`), and
 * ARGV[4] and ARGV[5], the retention. The write's version doubles as the kept version's id:
 * unique per key across deletes and purges, and only a committed attempt keeps one. A delete
 * keeps none (the store sends it as `compareAndSet`).
 */
export const compareAndSetKeepingVersion =
  luaScript(`${NOW_US}${SCORE}${KEEP_VERSION}${CHECK_VERSION}
if foreign_versions() then return ${FOREIGN_VERSIONS} end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])
keep_version()
return ${WRITTEN}
`);

/** The compare-and-set script for `keys`: the one that keeps a version when given its keys. */
export function compareAndSetFor(keys: readonly string[]): LuaScript {
  return keys.length === 3 ? compareAndSetKeepingVersion : compareAndSet;
}

/**
 * Runs `script` on the node that owns `keys` (one slot), by SHA, loading it there when it is
 * missing; each of the two calls within `deadlineMs` (see `deadlineOf`).
 */
export function runScript(
  client: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly string[],
  deadlineMs?: number,
): Promise<unknown> {
  return runScriptAs(client, script, { keys, args, deadlineMs }, replyItself, rethrow);
}

/** A script's keys and arguments, and the deadline of each call of it (see `deadlineOf`). */
interface ScriptCall {
  readonly keys: readonly string[];
  readonly args: readonly string[];
  readonly deadlineMs: number | undefined;
}

/**
 * `runScript`, its reply read by `read` and its failure turned by `failed` in the same step:
 * one promise a call, where a `runScript(...).then(read, failed)` made two. This runs for every
 * write; each layer of promises is one more microtask per call.
 */
export function runScriptAs<T>(
  client: RedisClient,
  script: LuaScript,
  call: ScriptCall,
  read: (reply: unknown) => T,
  failed: (error: unknown) => never,
): Promise<T> {
  coalesceTick(client);
  return sendScript(client, 'evalsha', script.sha, call).then(read, (error: unknown) => {
    if (!isNoScript(error)) return failed(error);
    try {
      return sendScript(client, 'eval', script.source, call).then(read, failed);
    } catch (retryError) {
      return failed(retryError);
    }
  });
}

/** One call of a script, by `evalsha` (`first`: its SHA) or `eval` (its source). */
function sendScript(
  client: RedisClient,
  name: 'evalsha' | 'eval',
  first: string,
  { keys, args, deadlineMs }: ScriptCall,
): Promise<unknown> {
  return within(deadlineMs, sendPlain(client, name, [first, keys.length, ...keys, ...args]));
}

function replyItself(reply: unknown): unknown {
  return reply;
}

function rethrow(error: unknown): never {
  throw error;
}
