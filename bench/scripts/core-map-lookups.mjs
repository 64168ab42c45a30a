// How many `Map` operations (get, set, has, delete) core makes per load + save + release on the
// memory store, by the function that made each, counted rather than timed: each `Map` method is
// wrapped for one run of 20,000 cycles (200 players in flight, one change per cycle), after a
// warm-up run. The memory store's own operations are counted apart (they are the backend's).
// Imports nothing but @datadriver/core, so it runs against core as built at any commit: copy it
// into that commit's packages/core (as core-cycle-ab.sh does core-only-cycle.mjs) and run
//   node core-map-lookups.mjs
const CYCLES = 20_000;
const PLAYERS = 200;
const byCaller = new Map();
let counting = false;
for (const method of ['get', 'set', 'has', 'delete']) {
  const original = Map.prototype[method];
  Map.prototype[method] = function (...args) {
    if (counting) {
      counting = false; // the count's own map operations are not counted
      // The function that called the Map method, and the one that called it.
      const [, , first = '', second = ''] = new Error().stack.split('\n');
      const name = (line) =>
        line
          .trim()
          .replace(/^at /, '')
          .replace(/ \(.*$/, '');
      const caller = `${method} in ${name(first)} < ${name(second)}`;
      byCaller.set(caller, (byCaller.get(caller) ?? 0) + 1);
      counting = true;
    }
    return original.apply(this, args);
  };
}
const { DataDriver, Handoff } = await import('@datadriver/core');
const { MemoryHost, MemoryMessenger, MemoryPresence, MemoryStore } = await import(
  '@datadriver/core/testing'
);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const jobId = `map-lookups-${process.pid}`;
const [messenger, presence] = [new MemoryMessenger(), new MemoryPresence()];
const handoff = new Handoff({ jobId, messenger, presence, logger: quiet });
const driver = new DataDriver({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new MemoryStore(),
  messenger,
  presence,
  logger: quiet,
  jobId,
  handoff,
});
driver.attach(new MemoryHost(jobId));
const run = () =>
  Promise.all(
    Array.from({ length: PLAYERS }, async (_, index) => {
      for (let cycle = 0; cycle < CYCLES / PLAYERS; cycle++) {
        const profile = await driver.load(`lookups-${index}`);
        profile.data.coins += 1;
        await profile.save();
        await profile.release();
      }
    }),
  );
await run();
counting = true;
await run();
counting = false;
let core = 0;
let store = 0;
for (const [caller, count] of [...byCaller].sort((a, b) => b[1] - a[1])) {
  const perCycle = count / CYCLES;
  if (caller.includes('MemoryStore.')) store += perCycle;
  else core += perCycle;
  if (perCycle >= 0.05) console.log(`${perCycle.toFixed(2).padStart(6)}  ${caller}`);
}
console.log(
  `core: ${core.toFixed(2)} map operations per cycle; the memory store: ${store.toFixed(2)}`,
);
await driver.close();
await handoff.destroy();
