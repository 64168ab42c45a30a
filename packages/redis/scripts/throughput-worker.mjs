/**
 * One process of measure-cluster.mjs: a DataDriver on the Redis adapters that keeps PLAYERS
 * players cycling (load, one change, save, release) for WINDOW_SECONDS, then reports to its parent
 * how many cycles it finished and how long each save took. It imports core's built dist and
 * the adapter from ADAPTER_MODULE, as the test fixtures do.
 *
 * Env: ADAPTER_MODULE, PREFIX, WORKER; REDIS_URL or CLUSTER_NODES (`host:port,...`);
 * PLAYERS, WINDOW_SECONDS; WAIT_FOR_REPLICAS (0: none).
 */
import { DataDriver } from '@datadriver/core';
import { Cluster, Redis } from 'ioredis';

const { ADAPTER_MODULE, PREFIX, WORKER, REDIS_URL, CLUSTER_NODES } = process.env;
const players = Number(process.env.PLAYERS ?? 50);
const seconds = Number(process.env.WINDOW_SECONDS ?? 3);
const waitForReplicas = Number(process.env.WAIT_FOR_REPLICAS ?? 0);
const { RedisStore, RECOMMENDED_REDIS_OPTIONS, RECOMMENDED_CLUSTER_OPTIONS } = await import(
  ADAPTER_MODULE
);

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const client = CLUSTER_NODES
  ? new Cluster(
      CLUSTER_NODES.split(',').map((address) => {
        const [host, port] = address.split(':');
        return { host, port: Number(port) };
      }),
      { ...RECOMMENDED_CLUSTER_OPTIONS },
    )
  : new Redis(REDIS_URL, { ...RECOMMENDED_REDIS_OPTIONS });
client.on('error', () => undefined);
await client.ping();

const driver = new DataDriver({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new RedisStore({ client, prefix: PREFIX, logger: quiet, waitForReplicas }),
  jobId: `throughput-${WORKER}`,
  handoff: false,
  logger: quiet,
});

const saves = [];
const cpuBefore = process.cpuUsage();
let cycles = 0;
let failures = 0;
const until = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: players }, async (_, index) => {
    const key = `w${WORKER}-p${index}`;
    while (performance.now() < until) {
      try {
        const profile = await driver.load(key);
        profile.data.coins += 1;
        const started = performance.now();
        await profile.save();
        saves.push(performance.now() - started);
        await profile.release();
        cycles += 1;
      } catch {
        failures += 1;
      }
    }
  }),
);
const cpu = process.cpuUsage(cpuBefore);
process.send?.({ cycles, failures, seconds, saves, cpuUs: cpu.user + cpu.system });
await driver.close();
client.disconnect();
