#!/usr/bin/env node
/**
 * Throughput of DataDriver on one redis-server against a Redis Cluster of three masters and
 * three replicas, in the same run, and what `waitForReplicas: 1` costs on the cluster. Each
 * measure is WORKERS processes (scripts/throughput-worker.mjs), each keeping PLAYERS players
 * cycling load, one change, save, release for WINDOW_SECONDS; the setups take turns, ROUNDS times,
 * so a change of load on the machine hits each alike. Beside each rate: the save's latency, the
 * CPU each cycle costs the client processes and the Redis servers (every node, replicas
 * included), which is what tells how far each setup scales once given machines of its own, and
 * the store's commands per cycle as the masters counted them (INFO commandstats).
 *
 * A player loads the same key each cycle on the same driver, so after its first (cold) load in a
 * window, a load starts from the snapshot the release left: the measured cycle is a rejoin on
 * the same server, three compare-and-sets (EVALSHA) and no read (HGETALL); a cold load would add
 * one HGETALL.
 *
 *   pnpm --filter @datadriver/redis measure:cluster   (starts its own redis-server and cluster)
 *   REDIS_URL=redis://a:6379 REDIS_CLUSTER_NODES=b:7000,c:7000 WORKERS=4 node scripts/measure-cluster.mjs
 *
 * Needs @datadriver/core and @datadriver/backends built (`pnpm build`); this package's src is
 * bundled on the fly.
 */
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { requireBuilt } from './require-built.mjs';

requireBuilt();

const { startRedis, startRedisCluster } = await import('@datadriver/backends');
const { Redis } = await import('ioredis');
const { bundleAdapter } = await import('./bundle-adapter.mjs');

const WORKERS = Number(process.env.WORKERS ?? 2);
const PLAYERS = Number(process.env.PLAYERS ?? 50);
const WINDOW_SECONDS = Number(process.env.WINDOW_SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const worker = fileURLToPath(new URL('./throughput-worker.mjs', import.meta.url));

/** Nearest-rank percentile of sorted values. */
function percentile(sorted, p) {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function runWorker(env) {
  return new Promise((resolve, reject) => {
    const child = fork(worker, { env: { ...process.env, ...env }, stdio: 'inherit' });
    let result;
    child.on('message', (message) => {
      result = message;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`worker exited with ${code} and no result`)),
    );
  });
}

/** The commands counted per cycle: the store's read, its script (and EVAL on NOSCRIPT), WAIT. */
const COUNTED = ['hgetall', 'evalsha', 'eval', 'wait'];

/**
 * What the servers at `urls` have done so far (INFO): CPU seconds, summed for masters and for
 * replicas, and the calls of each COUNTED command on the masters (a replica's are replication).
 */
async function serverStats(urls) {
  const total = {
    master: 0,
    replica: 0,
    calls: Object.fromEntries(COUNTED.map((name) => [name, 0])),
  };
  for (const url of urls) {
    const client = new Redis(url);
    const info = await client.info('all');
    client.disconnect();
    const role = /role:master/.test(info) ? 'master' : 'replica';
    for (const field of ['used_cpu_sys', 'used_cpu_user']) {
      total[role] += Number(new RegExp(`${field}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    }
    if (role !== 'master') continue;
    for (const name of COUNTED) {
      total.calls[name] += Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
    }
  }
  return total;
}

/**
 * One window of one setup: every worker at once; cycles per second, save latencies, and the
 * CPU per cycle of the client processes and of every Redis server of the setup.
 */
async function window(setup, round, adapterModule) {
  const serverBefore = await serverStats(setup.servers);
  const results = await Promise.all(
    Array.from({ length: WORKERS }, (_, index) =>
      runWorker({
        ...setup.env,
        ADAPTER_MODULE: adapterModule,
        PREFIX: `ddmeasure:${process.pid}:${setup.tag}:${round}:`,
        WORKER: String(index),
        PLAYERS: String(PLAYERS),
        WINDOW_SECONDS: String(WINDOW_SECONDS),
      }),
    ),
  );
  const serverAfter = await serverStats(setup.servers);
  const cycles = results.reduce((sum, each) => sum + each.cycles, 0);
  const failures = results.reduce((sum, each) => sum + each.failures, 0);
  const clientUs = results.reduce((sum, each) => sum + each.cpuUs, 0);
  return {
    perSecond: cycles / WINDOW_SECONDS,
    failures,
    saves: results.flatMap((each) => each.saves),
    clientUsPerCycle: clientUs / cycles,
    masterUsPerCycle: ((serverAfter.master - serverBefore.master) * 1e6) / cycles,
    replicaUsPerCycle: ((serverAfter.replica - serverBefore.replica) * 1e6) / cycles,
    callsPerCycle: Object.fromEntries(
      COUNTED.map((name) => [name, (serverAfter.calls[name] - serverBefore.calls[name]) / cycles]),
    ),
  };
}

async function measure(redisUrl, clusterNodes) {
  const adapterModule = await bundleAdapter('measure-cluster');
  const nodeUrls = clusterNodes.split(',').map((address) => `redis://${address}`);
  const setups = [
    { name: 'one redis-server', tag: 'one', env: { REDIS_URL: redisUrl }, servers: [redisUrl] },
    {
      name: 'Redis Cluster, 3 masters',
      tag: 'cluster',
      env: { CLUSTER_NODES: clusterNodes },
      servers: nodeUrls,
    },
    {
      name: 'Redis Cluster, waitForReplicas: 1',
      tag: 'wait',
      env: { CLUSTER_NODES: clusterNodes, WAIT_FOR_REPLICAS: '1' },
      servers: nodeUrls,
    },
  ];
  const windows = new Map(setups.map((setup) => [setup.tag, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const setup of setups)
      windows.get(setup.tag).push(await window(setup, round, adapterModule));
  }
  console.log(
    `DataDriver throughput, ${WORKERS} processes x ${PLAYERS} players, each cycling load, one change, save, release; ${ROUNDS} rounds of ${WINDOW_SECONDS} s per setup, taking turns`,
  );
  console.log(
    "each player's key again and again on the same driver: a window's first load of a key is cold (a read, then a compare-and-set), each later one starts from the snapshot its release left (a rejoin on the same server: one compare-and-set, no read)",
  );
  console.log(
    `machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}`,
  );
  for (const setup of setups) {
    const all = windows.get(setup.tag);
    const rates = all.map((each) => each.perSecond).sort((a, b) => a - b);
    const saves = all.flatMap((each) => each.saves).sort((a, b) => a - b);
    const failures = all.reduce((sum, each) => sum + each.failures, 0);
    const median = (pick) =>
      percentile(
        all.map(pick).sort((a, b) => a - b),
        50,
      ).toFixed(0);
    const calls = COUNTED.map(
      (name) =>
        `${name.toUpperCase()} ${percentile(
          all.map((each) => each.callsPerCycle[name]).sort((a, b) => a - b),
          50,
        ).toFixed(3)}`,
    ).join(', ');
    console.log(
      `  ${setup.name.padEnd(34)} ${percentile(rates, 50).toFixed(0).padStart(6)} cycles/s (windows ${rates.map((rate) => rate.toFixed(0)).join(', ')})   save p50 ${percentile(saves, 50).toFixed(2)} ms  p99 ${percentile(saves, 99).toFixed(2)} ms   CPU per cycle: clients ${median((each) => each.clientUsPerCycle)} µs, masters ${median((each) => each.masterUsPerCycle)} µs, replicas ${median((each) => each.replicaUsPerCycle)} µs   commands per cycle: ${calls}   ${failures} failed`,
    );
  }
}

const redis = await startRedis();
const cluster = await startRedisCluster();
try {
  const nodes = cluster.nodes.map(({ host, port }) => `${host}:${port}`).join(',');
  await measure(redis.url, nodes);
} finally {
  await cluster.stop();
  await redis.stop();
}
