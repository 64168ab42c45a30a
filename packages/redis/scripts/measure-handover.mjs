#!/usr/bin/env node
/**
 * Measures the hand-over of a live session between two server processes on one Redis, the
 * Redis commands each hop cost (INFO commandstats over the measured hops), and the round trip
 * of one Redis command in the same run. Each server is the test fixture
 * (test/fixtures/server.mjs) with the seed's timings and handoff turned on by attach's rule.
 *
 *   pnpm --filter @datadriver/redis measure          (starts its own redis-server)
 *   REDIS_URL=redis://host:6379 HOPS=500 node scripts/measure-handover.mjs
 *
 * Needs @datadriver/core and @datadriver/backends built (`pnpm build`); this package's src is
 * bundled on the fly.
 */
import { requireBuilt } from './require-built.mjs';

requireBuilt();

const { startRedis } = await import('@datadriver/backends');
const { Redis } = await import('ioredis');
const { bundleAdapter } = await import('./bundle-adapter.mjs');
const { ServerProcess } = await import('../test/fixtures/server-process.mjs');

const HOPS = Number(process.env.HOPS ?? 200);
const WARMUP_HOPS = 10;
const ROUND_TRIPS = 2_000;
const MESSAGE_LIMITS_TIMES = 100;

/** Nearest-rank percentile of sorted values. */
function percentile(sorted, p) {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (value) => `${value.toFixed(2)} ms`;
  return `median ${ms(percentile(sorted, 50))}   p99 ${ms(percentile(sorted, 99))}   min ${ms(sorted[0])}   max ${ms(sorted.at(-1))}`;
}

/** Sequential round trips of one command, after a warm-up. */
async function roundTrips(client, command) {
  for (let i = 0; i < 100; i += 1) await command(client);
  const times = [];
  for (let i = 0; i < ROUND_TRIPS; i += 1) {
    const started = performance.now();
    await command(client);
    times.push(performance.now() - started);
  }
  return times;
}

/** The calls of each command the server has run so far (INFO commandstats), but INFO's own. */
async function commandCalls(client) {
  const info = await client.info('commandstats');
  const calls = new Map();
  for (const [, name, count] of info.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)) {
    if (name !== 'info') calls.set(name, Number(count));
  }
  return calls;
}

/** Moves `player` from `holder` (still connected there) to `target`; returns the waits. */
async function hop(holder, target, player, coins) {
  await holder.request('setCoins', { player, coins }); // unsaved: must travel with the handover
  const from = target.messages.length;
  const started = performance.now();
  await target.request('join', { player });
  const loaded = await target.settled(player, 30_000, from);
  const seenMs = performance.now() - started;
  if (loaded.type !== 'load.loaded')
    throw new Error(`hop to ${target.jobId} failed: ${loaded.type}`);
  const profile = await target.request('profile', { player });
  if (profile?.coins !== coins)
    throw new Error(`hop lost data: ${profile?.coins} instead of ${coins}`);
  return { waitedMs: loaded.waitedMs, seenMs };
}

async function measure(redisUrl) {
  const run = `ddmeasure:${process.pid}:`;
  const adapterModule = await bundleAdapter('measure');
  const start = (label) =>
    ServerProcess.start({
      redisUrl,
      jobId: `${run}${label}`,
      driverName: 'PlayerData',
      adapterModule,
      prefix: run,
      // One player hopping back to back is far more handoff messages a minute per server than
      // MessagingService's 600 allow: at the seed's budgets a dropped request waits for presence
      // reads (4 s), as the bench's servers would without theirs raised the same way.
      messageLimitsTimes: MESSAGE_LIMITS_TIMES,
    });
  const servers = await Promise.all([start('A'), start('B')]);
  const client = new Redis(redisUrl);
  try {
    const player = 'player-1';
    const from = servers[0].messages.length;
    await servers[0].request('join', { player });
    await servers[0].settled(player, 30_000, from);
    const waited = [];
    const seen = [];
    let before;
    for (let index = 0; index < WARMUP_HOPS + HOPS; index += 1) {
      if (index === WARMUP_HOPS) before = await commandCalls(client);
      const [holder, target] = index % 2 === 0 ? servers : [servers[1], servers[0]];
      const result = await hop(holder, target, player, index + 1);
      if (index < WARMUP_HOPS) continue;
      waited.push(result.waitedMs);
      seen.push(result.seenMs);
    }
    const after = await commandCalls(client);
    const perHop = [...after]
      .map(([name, count]) => [name, (count - (before.get(name) ?? 0)) / HOPS])
      .filter(([, count]) => count >= 0.005)
      .sort(([, a], [, b]) => b - a)
      .map(([name, count]) => `${name.toUpperCase()} ${count.toFixed(2)}`)
      .join(', ');
    const version = (await client.info('server')).match(/redis_version:(\S+)/)?.[1];
    const ping = await roundTrips(client, (c) => c.ping());
    await client.set(`${run}rtt`, 'x'.repeat(100));
    const get = await roundTrips(client, (c) => c.get(`${run}rtt`));
    const kicks = servers.reduce((sum, server) => sum + server.kicks.length, 0);
    console.log(
      `DataDriver on Redis ${version} (${redisUrl}), two server processes, default timings, message budgets x${MESSAGE_LIMITS_TIMES}`,
    );
    console.log(
      `hand-over of a live session, ${HOPS} hops (+${WARMUP_HOPS} warm-up), ${kicks} kicks "You joined another server."`,
    );
    console.log(`  wait the joining player saw (driver's waitedMs): ${summary(waited)}`);
    console.log(`  join sent to load seen by the parent over IPC:   ${summary(seen)}`);
    console.log(
      `  Redis commands per hop (a script's own calls and the presence beats counted too): ${perHop}`,
    );
    // A hop slower than its neighbours by seconds is usually a message a budget dropped: say so.
    const warnings = servers.flatMap((server) =>
      server.messages.filter((message) => message.type === 'log' && message.level === 'warn'),
    );
    console.log(
      `  warnings logged by the servers: ${warnings.length}${warnings.map((each) => `\n    ${each.message}`).join('')}`,
    );
    console.log(`round trip of one Redis command, ${ROUND_TRIPS} sequential, same run`);
    console.log(`  PING:                                            ${summary(ping)}`);
    console.log(`  GET (100 bytes):                                 ${summary(get)}`);
    // The names as the adapter lays them out (src/keys.ts).
    const { RedisPresence, RedisStore } = await import(adapterModule);
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const store = new RedisStore({ client, prefix: run, logger: quiet });
    const presence = new RedisPresence({ client, prefix: run, logger: quiet });
    const beats = servers.map((server) => presence.keyOf(server.jobId));
    await client.del(store.keyOf(`PlayerData/${player}`), `${run}rtt`, ...beats);
  } finally {
    client.disconnect();
    await Promise.all(servers.map((server) => server.stop()));
  }
}

const redis = await startRedis();
try {
  await measure(redis.url);
} finally {
  await redis.stop();
}
