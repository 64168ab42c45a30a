/**
 * The same-commands floor of throughput: the Redis commands DataDriver sent per load + save +
 * release cycle in this very run (counted by Redis during its warm-up window), sent by hand with
 * no DataDriver around them. Each write is a compare-and-set script on a hash with a version
 * and the record, shaped as the Redis store's (a conflict check, then HSET), carrying a record
 * of the size DataDriver writes (copied from one it wrote); a read is HGETALL. Its client work
 * is only what any client of these commands needs: parse what it read, stringify what it
 * writes, one counter for versions.
 *
 * The shape follows DataDriver: a read before each of its three writes once (6 commands); a
 * holder's writes with no read first (4); and a load of a key the same server just released,
 * which starts from the release's snapshot, with no read at all (3). With no read, the floor
 * carries each key's last version from one cycle to the next, as DataDriver does. Against the
 * naive lock this is the floor of the design, not of DataDriver's code.
 *
 * Its commands leave as the Redis store's do: those of one tick in one socket write (the store
 * corks its connection for the tick, `coalesce.ts` in @datadriver/redis), but the first of a
 * tick on a connection that awaits no reply, which leaves at once; so the floor differs from
 * DataDriver by DataDriver's code alone. The naive lock is written as a user would write
 * it, on a plain client: one socket write per command.
 */
import type { Redis } from 'ioredis';
import { type Calls, total } from './round-trips.js';

/** How many reads (HGETALL) and writes (the compare-and-set script) one cycle sends. */
export interface CycleShape {
  readonly reads: number;
  readonly writes: number;
}

/** The shape of DataDriver's cycle, from the commands it sent per cycle. */
export function shapeOf(callsPerCycle: Calls): CycleShape {
  const reads = Math.round(callsPerCycle.hgetall ?? 0);
  const writes = Math.round(total(callsPerCycle, ['evalsha', 'eval']));
  if (writes < 1) {
    throw new Error(`DataDriver's cycle sent ${JSON.stringify(callsPerCycle)}: no writes`);
  }
  return { reads, writes };
}

/** The records DataDriver wrote for one profile: while held (load, save) and once released. */
export interface RecordSamples {
  readonly held: string;
  readonly released: string;
}

const CAS = `
local version = redis.call('HGET', KEYS[1], 'version')
if version == ARGV[2] then return 1 end
if not version and redis.call('EXISTS', KEYS[1]) == 1 then return 2 end
if (version or '') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])
return 1`;

interface JsonRecord {
  data: { coins: number };
  [field: string]: unknown;
}

let sameCommandsRuns = 0;

/** A cycle of `shape` by hand on `client`, its keys apart from DataDriver's. */
export async function sameCommandsCycle(
  client: Redis,
  shape: CycleShape,
  samples: RecordSamples,
): Promise<(key: string) => Promise<void>> {
  const sha = String(await client.script('LOAD', CAS));
  const [held, released] = [samples.held, samples.released].map((json) => {
    return JSON.parse(json) as JsonRecord;
  }) as [JsonRecord, JsonRecord];
  const prefix = `${process.pid.toString(36)}-`;
  let versions = 0;
  // Each key's version and coins as its last cycle left them: what a cycle with no read needs.
  const last = new Map<string, { version: string; coins: number }>();
  // Keys of this floor alone: another pass of the bench reuses the players' key names.
  const run = (sameCommandsRuns++).toString(36);
  return async (key) => {
    const redisKey = `bench-same:${run}:${key}`;
    let { version, coins } = last.get(key) ?? { version: '', coins: 0 };
    for (let write = 0; write < shape.writes; write++) {
      if (write < shape.reads) {
        corkForTick(client);
        const fields = await client.hgetall(redisKey);
        version = fields.version ?? '';
        if (fields.record) coins = (JSON.parse(fields.record) as JsonRecord).data.coins;
      }
      if (write === 1) coins += 1; // the save carries the change
      const record = write === shape.writes - 1 ? released : held;
      const next = `${prefix}${(versions++).toString(36)}`;
      const json = JSON.stringify({ ...record, data: { ...record.data, coins } });
      corkForTick(client);
      if ((await client.evalsha(sha, 1, redisKey, version, next, json)) !== 1) {
        throw new Error(`compare-and-set of ${redisKey} failed`); // never: one player per key
      }
      version = next;
    }
    last.set(key, { version, coins });
  };
}

/**
 * This tick's writes on `client`'s socket sent together on the next tick, but for the first of
 * a tick on a connection that awaits no reply, which leaves at once (as the store's do).
 */
function corkForTick(client: Redis): void {
  const { stream } = client;
  const tick = socketTicks.get(stream);
  if (tick === 'corked') return;
  if (tick === undefined) {
    process.nextTick(() => {
      const ended = socketTicks.get(stream);
      socketTicks.delete(stream);
      if (ended === 'corked') stream.uncork();
    });
    if (client.commandQueue.length === 0) {
      socketTicks.set(stream, 'sent');
      return;
    }
  }
  socketTicks.set(stream, 'corked');
  stream.cork();
}

const socketTicks = new WeakMap<Redis['stream'], 'sent' | 'corked'>();
