/**
 * `pnpm --filter @datadriver/bench cycle-profile`: where node's time goes in the throughput
 * measurement's cycle (load, one change, save, release; 200 players in flight) on one
 * redis-server of its own, sampled by V8's CPU profiler every 50 µs. Prints the cycles a second,
 * node's CPU per cycle and its self time by where it is spent: the socket writes (Node's native
 * `writeUtf8String` and `writev`, the syscall included), garbage collection, ioredis,
 * DataDriver's core and its Redis adapter, and the rest.
 *
 *   node dist/profiling/cycle-profile.js [--seconds 4] [--auto-pipelining]   (REDIS_URL, or its own)
 *   node dist/profiling/cycle-profile.js --postgres [--seconds 4]   (DATABASE_URL, or its own)
 *   node dist/profiling/cycle-profile.js --memory [--seconds 4]   (core's memory store: core's own)
 *
 * `--auto-pipelining` turns on ioredis's auto-pipelining on the store's client: the commands
 * of one tick go out in one pipeline.
 */
import { Session } from 'node:inspector/promises';
import { runPlayers } from '../measure/throughput.js';
import { numberOption, openProfiledCycle, PLAYERS, placeOf } from './profiled-cycle.js';

interface Profile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
  }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Self time by place, and by function (`name file:line`). */
function selfTime(profile: Profile): {
  byPlace: Map<string, number>;
  byFunction: Map<string, number>;
} {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = nodes.get(id);
    if (!node) return;
    const took = profile.timeDeltas[index] ?? 0;
    const place = placeOf(node.callFrame);
    byPlace.set(place, (byPlace.get(place) ?? 0) + took);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-3).join('/')}:${lineNumber}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + took);
  });
  return { byPlace, byFunction };
}

/** Functions listed by self time (`--functions <n>`, default 12). */
const FUNCTIONS = numberOption('functions', 12);

const seconds = numberOption('seconds', 4);
const autoPipelining = process.argv.includes('--auto-pipelining');
const { cycle, close } = await openProfiledCycle({ enableAutoPipelining: autoPipelining });
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
  const { byPlace, byFunction } = selfTime(profile);
  const total = [...byPlace.values()].reduce((sum, t) => sum + t, 0);
  const perCycle = (used.user + used.system) / cycles;
  console.log(
    `${Math.round(cycles / took)} cycles/s, node CPU ${perCycle.toFixed(0)} µs per cycle ` +
      `(${PLAYERS} players, ${took.toFixed(1)} s, profiled every 50 µs` +
      `${autoPipelining ? ', auto-pipelining' : ''})`,
  );
  for (const [place, time] of [...byPlace].sort((a, b) => b[1] - a[1])) {
    console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${place}`);
  }
  console.log('\nby function (self time):');
  for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, FUNCTIONS)) {
    console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`);
  }
} finally {
  await close();
}
