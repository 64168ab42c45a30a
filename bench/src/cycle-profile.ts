/**
 * `pnpm --filter @datadriver/bench cycle-profile`: where node's time goes in the throughput
 * measurement's cycle (load, one change, save, release; 200 players in flight) on one
 * redis-server of its own, sampled by V8's CPU profiler every 50 µs. Prints the cycles a second,
 * node's CPU per cycle and its self time by where it is spent: the socket write of each command
 * (Node's native `writeUtf8String`, the syscall included), garbage collection, ioredis,
 * DataDriver's core and its Redis adapter, and the rest.
 *
 *   node dist/cycle-profile.js [--seconds 4] [--auto-pipelining]   (REDIS_URL, or its own)
 *
 * `--auto-pipelining` turns on ioredis's auto-pipelining on the store's client: the commands
 * of one tick go out in one socket write.
 */
import { Session } from 'node:inspector/promises';
import { startRedis } from '@datadriver/backends';
import { DataDriver } from '@datadriver/core';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import type { Coins } from './measure/in-process-server.js';
import { dataDriverCycle, runPlayers } from './measure/throughput.js';
import { quietLogger } from './quiet-logger.js';

const PLAYERS = 200;
const secondsAt = process.argv.indexOf('--seconds');
const seconds = secondsAt >= 0 ? Number(process.argv[secondsAt + 1]) : 4;

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Where a sample's own time counts. */
function placeOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (functionName === 'writeUtf8String' || functionName === 'writev') return 'socket writes';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (url.includes('/ioredis/') || url.includes('/redis-parser/')) return 'ioredis';
  if (url.includes('/packages/core/')) return 'DataDriver core';
  if (url.includes('/packages/redis/')) return 'DataDriver Redis adapter';
  return 'the rest (Node, microtasks, the bench loop)';
}

function selfTimeByPlace(profile: Profile): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPlace = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = nodes.get(id);
    if (!node) return;
    const place = placeOf(node);
    byPlace.set(place, (byPlace.get(place) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return byPlace;
}

const own = process.env.REDIS_URL ? undefined : await startRedis({ env: {} });
const client = new Redis(process.env.REDIS_URL ?? own!.url, {
  ...RECOMMENDED_REDIS_OPTIONS,
  enableAutoPipelining: process.argv.includes('--auto-pipelining'),
});
const driver = new DataDriver<Coins>({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new RedisStore({ client, logger: quietLogger }),
  logger: quietLogger,
});
const cycle = dataDriverCycle(driver);
try {
  await runPlayers(cycle, `profile-warm-${process.pid}`, PLAYERS, 1);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  const { cycles, seconds: took } = await runPlayers(
    cycle,
    `profile-${process.pid}`,
    PLAYERS,
    seconds,
  );
  const used = process.cpuUsage(cpu);
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  session.disconnect();
  const byPlace = selfTimeByPlace(profile);
  const total = [...byPlace.values()].reduce((sum, t) => sum + t, 0);
  const perCycle = (used.user + used.system) / cycles;
  console.log(
    `${Math.round(cycles / took)} cycles/s, node CPU ${perCycle.toFixed(0)} µs per cycle ` +
      `(${PLAYERS} players, ${took.toFixed(1)} s, profiled every 50 µs` +
      `${client.options.enableAutoPipelining ? ', auto-pipelining' : ''})`,
  );
  for (const [place, time] of [...byPlace].sort((a, b) => b[1] - a[1])) {
    console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${place}`);
  }
} finally {
  await driver.close();
  client.disconnect();
  await own?.stop();
}
