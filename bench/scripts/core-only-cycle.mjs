// Core's own CPU per load + save + release on the memory store, importing nothing but
// @datadriver/core, so it runs against core as built at any commit (core-cycle-ab.sh copies
// it into that commit's packages/core, where the package's name resolves to itself). The same
// cycle as bench/src/measure/core-cycle.ts: 200 players in flight, one change per cycle, one
// warm-up second, then `windows` windows of one second. Prints the best window's µs; with
// MEASURE=allocations, the KB allocated per cycle over the windows instead, counting what the
// collector freed too (V8's sampling heap profiler, one sample per 256 bytes on average, as
// `cycle-allocations` samples).
import { Session } from 'node:inspector/promises';
import { DataDriver, Handoff } from '@datadriver/core';
import { MemoryHost, MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';

const windows = Number(process.argv[2] ?? 3);
// RECORD_KB=16: each profile also holds an inventory of about that many KB of JSON (items of
// 47 bytes each), so the cycle's JSON work is a real game's, not a one-field record's.
const recordKb = Number(process.env.RECORD_KB ?? 0);
const item = (index) => ({
  id: `item-${String(index).padStart(6, '0')}`,
  kind: 'sword',
  level: index % 50,
});
const inventory = Array.from({ length: Math.round((recordKb * 1024) / 47) }, (_, index) =>
  item(index),
);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const jobId = `core-only-${process.pid}`;
const [messenger, presence] = [new MemoryMessenger(), new MemoryPresence()];
const handoff = new Handoff({ jobId, messenger, presence, logger: quiet });
const driver = new DataDriver({
  name: 'PlayerData',
  defaults: recordKb > 0 ? { coins: 0, inventory } : { coins: 0 },
  store: new MemoryStore(),
  messenger,
  presence,
  logger: quiet,
  jobId,
  handoff,
});
driver.attach(new MemoryHost(jobId));

async function run(tag, seconds) {
  const deadline = performance.now() + seconds * 1000;
  let cycles = 0;
  const player = async (index) => {
    const key = `core-only-${tag}-${index}`;
    while (performance.now() < deadline) {
      const profile = await driver.load(key);
      profile.data.coins += 1;
      await profile.save();
      await profile.release();
      cycles++;
    }
  };
  await Promise.all(Array.from({ length: 200 }, (_, index) => player(index)));
  return cycles;
}

/** The bytes under a sampling profile's `node`, its own and its callees'. */
const bytesUnder = (node) =>
  node.children.reduce((sum, child) => sum + bytesUnder(child), node.selfSize);

await run('warm', 1);
if (process.env.MEASURE === 'allocations') {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  let cycles = 0;
  for (let index = 0; index < windows; index++) cycles += await run(`a${index}`, 1);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  console.log((bytesUnder(profile.head) / cycles / 1024).toFixed(2));
} else {
  const perCycle = [];
  for (let index = 0; index < windows; index++) {
    const before = process.cpuUsage();
    const cycles = await run(`w${index}`, 1);
    const cpu = process.cpuUsage(before);
    perCycle.push((cpu.user + cpu.system) / cycles);
  }
  console.log(Math.min(...perCycle).toFixed(1));
}
await driver.close();
await handoff.destroy();
