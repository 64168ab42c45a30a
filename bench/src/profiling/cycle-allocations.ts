/**
 * `pnpm --filter @datadriver/bench cycle-allocations`: what the throughput measurement's cycle
 * (load, one change, save, release; 200 players in flight, on a redis-server of its own)
 * allocates. Prints the bytes allocated per cycle, counting what the collector freed too
 * (V8's sampling heap profiler, one sample per 256 bytes on average), by place and by the
 * functions that allocate most, then the promises made per cycle (an async hook's count, in a
 * window of its own: the hook slows every promise).
 *
 *   node dist/profiling/cycle-allocations.js [--seconds 2]   (REDIS_URL, or its own)
 *   node dist/profiling/cycle-allocations.js --postgres [--seconds 2]   (DATABASE_URL, or its own)
 *   node dist/profiling/cycle-allocations.js --memory [--seconds 2]   (core's memory store: core's own)
 *   node dist/profiling/cycle-allocations.js --memory --record-kb 16   (each profile 16 KB of JSON)
 */
import { createHook } from 'node:async_hooks';
import { Session } from 'node:inspector/promises';
import { runPlayers } from '../measure/throughput.js';
import { numberOption, openProfiledCycle, PLAYERS, placeOf, REST } from './profiled-cycle.js';

interface SamplingNode {
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

/** Bytes by place, the part of them builtins made, and bytes by function (`name file:line`). */
interface Tally {
  readonly byPlace: Map<string, number>;
  readonly builtinsByPlace: Map<string, number>;
  readonly byFunction: Map<string, number>;
}

const add = (map: Map<string, number>, key: string, bytes: number) =>
  map.set(key, (map.get(key) ?? 0) + bytes);

/**
 * What `node` and its callees allocated. A frame with no script that `placeOf` names no place of
 * its own (a builtin such as `Map.prototype.set` or `Object.getOwnPropertyDescriptor`; not the
 * socket writes, nor a `(...)` frame of V8's) allocates for the code that called it: its bytes
 * count in its caller's place (`callerPlace`), and in that place's builtins.
 */
function tally(node: SamplingNode, into: Tally, callerPlace?: string) {
  const { functionName, url, lineNumber } = node.callFrame;
  const own = placeOf(node.callFrame);
  const builtin =
    url === '' && !functionName.startsWith('(') && own === REST && callerPlace !== undefined;
  const place = builtin ? callerPlace : own;
  if (node.selfSize > 0) {
    add(into.byPlace, place, node.selfSize);
    if (builtin) add(into.builtinsByPlace, place, node.selfSize);
    const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-3).join('/')}:${lineNumber}`;
    add(into.byFunction, name, node.selfSize);
  }
  for (const child of node.children) tally(child, into, place);
}

const seconds = numberOption('seconds', 2);
const { cycle, close } = await openProfiledCycle();
try {
  await runPlayers(cycle, `alloc-warm-${process.pid}`, PLAYERS, 1);
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const { cycles } = await runPlayers(cycle, `alloc-${process.pid}`, PLAYERS, seconds);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  const into: Tally = { byPlace: new Map(), builtinsByPlace: new Map(), byFunction: new Map() };
  tally(profile.head, into);
  const { byPlace, builtinsByPlace, byFunction } = into;
  const total = [...byPlace.values()].reduce((sum, bytes) => sum + bytes, 0);
  const kb = (bytes: number) => `${(bytes / cycles / 1024).toFixed(1)} KB`;
  console.log(`${kb(total)} allocated per cycle (${cycles} cycles, ${PLAYERS} players in flight)`);
  for (const [place, bytes] of [...byPlace].sort((a, b) => b[1] - a[1])) {
    const builtins = kb(builtinsByPlace.get(place) ?? 0);
    const of = builtins === kb(0) ? '' : ` (${builtins} of it by builtins it called)`;
    console.log(`${kb(bytes).padStart(9)}  ${place}${of}`);
  }
  console.log('the functions that allocate most, per cycle:');
  for (const [name, bytes] of [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, numberOption('top', 12))) {
    console.log(`${kb(bytes).padStart(9)}  ${name}`);
  }
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises += 1;
    },
  }).enable();
  const counted = await runPlayers(cycle, `promises-${process.pid}`, PLAYERS, 1);
  hook.disable();
  console.log(`${(promises / counted.cycles).toFixed(1)} promises made per cycle`);
} finally {
  await close();
}
