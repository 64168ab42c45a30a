// A fixed number of load + save + release cycles on the memory store, importing nothing but
// @datadriver/core (core-cycle-counts.sh copies it into a commit's packages/core, as
// core-cycle-ab.sh does core-only-cycle.mjs): 100 players in flight, one change per cycle.
//   node core-fixed-cycles.mjs <cycles>          runs them and prints nothing (run under callgrind)
//   node core-fixed-cycles.mjs <cycles> --clock  prints how often core read the clock per cycle
import { DataDriver, Handoff } from '@datadriver/core';
import { SystemScheduler } from '@datadriver/core/ports';
import { MemoryHost, MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';

const cycles = Number(process.argv[2] ?? 1000);
const counting = process.argv.includes('--clock');
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

await run(10); // warm: every key exists and was released here once
reads = 0;
await run(Math.ceil(cycles / 100));
if (counting) console.log((reads / (Math.ceil(cycles / 100) * 100)).toFixed(2));
await driver.close();
await handoff.destroy();
