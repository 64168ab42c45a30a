/**
 * The one Lua script of the store: a compare-and-set on the record's version. It is called by
 * SHA; a server that lacks it (first call, restart, failover, SCRIPT FLUSH) answers NOSCRIPT,
 * and the call is repeated with EVAL, which runs it and caches it on that very node.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './client.js';
import { isNoScript } from './errors.js';

export interface LuaScript {
  readonly source: string;
  /** SHA-1 of `source`: the name EVALSHA calls it by. */
  readonly sha: string;
}

function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Reply of `compareAndSet`: written (or already written by this very call). */
export const WRITTEN = 1;
/** Reply of `compareAndSet`: the version moved; nothing was written. */
export const CONFLICT = 0;
/** Reply of `compareAndSet`: the key holds a hash that DataDriver did not write. */
export const FOREIGN = 2;

/**
 * KEYS[1]: the record's hash. ARGV[1]: the version the caller read ('' for no record).
 * ARGV[2]: the caller's new version, random per attempt. ARGV[3]: the record's JSON, or ''
 * to delete it.
 *
 * Versions are random, never counters, so a record deleted and created again cannot match a
 * version read before the delete. A version equal to ARGV[2] means this very write already
 * landed and ioredis resent it after a reconnect: it answers written, and nothing runs twice.
 */
export const compareAndSet = luaScript(`
local version = redis.call('HGET', KEYS[1], 'version')
if version == ARGV[2] then return {${WRITTEN}} end
if not version and redis.call('EXISTS', KEYS[1]) == 1 then return {${FOREIGN}} end
if (version or '') ~= ARGV[1] then return {${CONFLICT}} end
if ARGV[3] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])
end
return {${WRITTEN}}
`);

/** Runs `script` on the node that owns `key`, by SHA, loading it there when it is missing. */
export async function runScript(
  client: RedisClient,
  script: LuaScript,
  key: string,
  args: readonly string[],
): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, 1, key, ...args);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return client.eval(script.source, 1, key, ...args);
  }
}
