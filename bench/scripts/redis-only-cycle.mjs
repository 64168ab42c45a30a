// The throughput cycle (load, one change, save, release; 200 players in flight) on one Redis,
// importing nothing but @datadriver/core, @datadriver/redis and ioredis, so it runs against
// those packages as built at any commit (redis-cycle-ab.sh copies it into that commit's
// packages/redis). The store is the Redis adapter on a client made with its recommended
// options; the messenger and presence are core's in-memory ones (no calls per cycle). One
// warm-up second, then `windows` windows of `seconds`; prints the best window's cycles per
// second and node's CPU per cycle (µs) in it, then the run's cycles in all. AUTO=1: the client
// with ioredis's enableAutoPipelining on.
import { DataDriver, Handoff } from '@datadriver/core';
import { MemoryHost, MemoryMessenger, MemoryPresence } from '@datadriver/core/testing';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';

const windows = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 2);
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const jobId = `redis-only-${process.pid}`;
const client = new Redis(url, {
  ...RECOMMENDED_REDIS_OPTIONS,
  enableAutoPipelining: process.env.AUTO === '1',
});
const [messenger, presence] = [new MemoryMessenger(), new MemoryPresence()];
const handoff = new Handoff({ jobId, messenger, presence, logger: quiet });
const driver = new DataDriver({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new RedisStore({ client }),
  messenger,
  presence,
  logger: quiet,
  jobId,
  handoff,
});
driver.attach(new MemoryHost(jobId));

async function run(tag, runSeconds) {
  const deadline = performance.now() + runSeconds * 1000;
  let cycles = 0;
  const player = async (index) => {
    const key = `redis-only-${process.pid}-${tag}-${index}`;
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

let total = await run('warm', 1);
let best = { rate: 0, cpu: 0 };
for (let index = 0; index < windows; index++) {
  const before = process.cpuUsage();
  const started = performance.now();
  const cycles = await run(`w${index}`, seconds);
  total += cycles;
  const cpu = process.cpuUsage(before);
  const rate = cycles / ((performance.now() - started) / 1000);
  if (rate > best.rate) best = { rate, cpu: (cpu.user + cpu.system) / cycles };
}
// The cycles of the whole run, warm-up included: redis-cycle-ab.sh divides redis-server's CPU
// over the run by them.
console.log(`${best.rate.toFixed(0)} ${best.cpu.toFixed(1)} ${total}`);
await driver.close();
await handoff.destroy();
client.disconnect();
