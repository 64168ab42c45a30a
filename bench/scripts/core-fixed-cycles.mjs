// A fixed number of load + save + release cycles on the memory store, importing nothing but
// @datadriver/core (core-cycle-counts.sh copies it into a commit's packages/core, as
// core-cycle-ab.sh does core-only-cycle.mjs): 100 players in flight, one change per cycle.
//   node core-fixed-cycles.mjs <cycles>          runs them and prints nothing (run under callgrind)
//   node core-fixed-cycles.mjs <cycles> --clock  prints how often core read the clock per cycle
//   node core-fixed-cycles.mjs <cycles> --maps   prints core's Map operations (get, set, has,
//     delete) per cycle, by the function that made each and its caller; the memory store's own
//     (its frames are in dist/testing) are counted apart, as the backend's
import { DataDriver, Handoff } from '@datadriver/core';
import { SystemScheduler } from '@datadriver/core/ports';
import { MemoryHost, MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';

const cycles = Number(process.argv[2] ?? 1000);
const counting = process.argv.includes('--clock');
const countingMaps = process.argv.includes('--maps');
let reads = 0;
const clock = () => {
  reads += 1;
  return Date.now();
};
const scheduler = new SystemScheduler({ now: clock });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const jobId = `fixed-${process.pid}`;
const [messenger, presence] = [new MemoryMessenger(), new MemoryPresence()];
const handoff = new Handoff({ jobId, messenger, presence, logger: quiet, scheduler });
const driver = new DataDriver({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new MemoryStore(),
  messenger,
  presence,
  logger: quiet,
  jobId,
  handoff,
  scheduler,
});
driver.attach(new MemoryHost(jobId));

const run = (perPlayer) =>
  Promise.all(
    Array.from({ length: 100 }, async (_, index) => {
      for (let cycle = 0; cycle < perPlayer; cycle++) {
        const profile = await driver.load(`fixed-${index}`);
        profile.data.coins += 1;
        await profile.save();
        await profile.release();
      }
    }),
  );

/** Each Map operation from here on, by `<method> in <function> < <its caller>`. */
function countMapOperations() {
  const byCaller = new Map();
  const frameName = (line) =>
    line
      .trim()
      .replace(/^at /, '')
      .replace(/ \(.*$/, '');
  let inCount = false; // the count's own Map operations are not counted
  for (const method of ['get', 'set', 'has', 'delete']) {
    const original = Map.prototype[method];
    Map.prototype[method] = function (...args) {
      if (!inCount) {
        inCount = true;
        // Frame 0 is the Error, 1 this wrapper, 2 the Map method's caller, 3 its caller.
        const [, , caller = '', callersCaller = ''] = new Error().stack.split('\n');
        const where = `${method} in ${frameName(caller)} < ${frameName(callersCaller)}`;
        const key = `${caller.includes('/dist/testing') ? 'store' : 'core'}\t${where}`;
        byCaller.set(key, (byCaller.get(key) ?? 0) + 1);
        inCount = false;
      }
      return original.apply(this, args);
    };
  }
  return byCaller;
}

function printMapOperations(byCaller, counted) {
  const total = { core: 0, store: 0 };
  for (const [key, count] of [...byCaller].sort((a, b) => b[1] - a[1])) {
    const [side, where] = key.split('\t');
    total[side] += count / counted;
    if (side === 'core') console.log(`${(count / counted).toFixed(2).padStart(6)}  ${where}`);
  }
  const perCycle = (side) => total[side].toFixed(2);
  console.log(
    `${perCycle('core')} Map operations per cycle in core; the memory store ${perCycle('store')}`,
  );
}

await run(10); // warm: every key exists and was released here once
reads = 0;
const byCaller = countingMaps ? countMapOperations() : undefined;
const counted = Math.ceil(cycles / 100) * 100;
await run(counted / 100);
if (counting) console.log((reads / counted).toFixed(2));
if (byCaller) printMapOperations(byCaller, counted);
await driver.close();
await handoff.destroy();
