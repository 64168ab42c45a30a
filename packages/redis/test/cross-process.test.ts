/**
 * Real server processes sharing one redis-server: each a fixture (test/fixtures/server.mjs)
 * with its own jobId, client, driver and MemoryHost, driven over IPC.
 */
import type { ServerPorts } from '@datadriver/testkit';
import {
  CHAIN,
  describeProbe,
  HOP_CHAIN,
  type ProbeFigures,
  type ProbeOptions,
  probed,
} from '@datadriver/testkit/cluster';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RedisMessenger, RedisPresence, RedisStore } from '../src/index.js';
import { presenceKey, recordKey } from '../src/keys.js';
import { ServerProcess } from './fixtures/server-process.mjs';
import { Clients, redisUrl, uniquePrefix } from './support/redis.js';

// Real seconds per unscaled second: a 300 ms beat and a 1 s presence TTL.
const scale = 0.1;
const beatMs = 3_000 * scale;
const parkMaxMs = 2_000 * scale;
const scaledMs = (ms: number) => ms * scale;

const clients = new Clients();
const run = uniquePrefix('processes');
const driverName = `PlayerData-${process.pid}`;
const servers = new Map<string, ServerProcess>();
let raw: Redis;
/** This process's own connections under the run's prefix: a probe times the machine beside a wait. */
let probePorts: ServerPorts & { messenger: RedisMessenger };

/**
 * Runs `wait` with a probe beside it: its slack goes on top of the wait's scaled bound. The
 * slack is the wait's own chain of calls, at least the servers' own work (200 unscaled ms) and
 * below one beat, so a missed beat never fits in it.
 */
async function timed<T>(
  wait: () => Promise<T>,
  chain: ProbeOptions['chain'],
): Promise<{ value: T; figures: ProbeFigures }> {
  return probed(probePorts, wait, { chain, floorMs: scaledMs(200), capMs: beatMs - 1 });
}

function server(label: string): ServerProcess {
  return servers.get(label)!;
}

/** The stored profile record of `player`, read past every server. */
async function record(player: string) {
  const json = await raw.hget(recordKey(run, `${driverName}/${player}`), 'record');
  return json === null ? undefined : JSON.parse(json);
}

beforeAll(async () => {
  raw = await clients.open();
  const client = await clients.open();
  probePorts = {
    store: new RedisStore({ client, prefix: run }),
    presence: new RedisPresence({ client, prefix: run }),
    messenger: new RedisMessenger({ client, prefix: run }),
  };
  const started = await Promise.all(
    ['A', 'B', 'C'].map((label) =>
      ServerProcess.start({
        redisUrl: redisUrl(),
        jobId: `${run}${label}`,
        driverName,
        adapterModule: inject('adapterModule'),
        prefix: run,
        scale,
      }),
    ),
  );
  for (const [index, label] of ['A', 'B', 'C'].entries()) servers.set(label, started[index]!);
});

afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.stop()));
  await probePorts?.messenger.close();
  await clients.quitAll();
});

describe('servers in separate processes on one Redis', () => {
  it('hands a player who is still connected from server to server, with the latest data each time', async () => {
    const a = server('A');
    let from = a.messages.length;
    await a.request('join', { player: 'p1' });
    expect((await a.settled('p1', 5_000, from)).type).toBe('load.loaded');
    const route = ['A', 'B', 'C', 'A', 'C', 'B', 'A'];
    for (let hop = 1; hop < route.length; hop += 1) {
      const holder = server(route[hop - 1]!);
      const target = server(route[hop]!);
      await holder.request('setCoins', { player: 'p1', coins: hop * 10 }); // not saved yet
      const kicksBefore = holder.kicks.length;
      from = target.messages.length;
      const { value: loaded, figures } = await timed(async () => {
        await target.request('join', { player: 'p1' }); // still connected on the holder
        return target.settled('p1', 10_000, from);
      }, HOP_CHAIN);
      expect(loaded.type).toBe('load.loaded');
      const bound = scaledMs(1_500) + figures.slackMs;
      expect(loaded.waitedMs, describeProbe('the hop', figures)).toBeLessThanOrEqual(bound);
      expect(await target.request('profile', { player: 'p1' })).toMatchObject({ coins: hop * 10 });
      expect(holder.kicks.slice(kicksBefore)).toEqual([
        { type: 'kick', player: 'p1', message: 'You joined another server.' },
      ]);
      expect(await holder.request('profile', { player: 'p1' })).toBeNull();
      expect((await record('p1')).meta.lock.jobId).toBe(target.jobId);
    }
  });

  it('takes over from a server killed with SIGKILL after presence expiry plus one beat, loading its last save', async () => {
    const [c, b] = [server('C'), server('B')];
    let from = c.messages.length;
    await c.request('join', { player: 'p2' });
    expect((await c.settled('p2', 5_000, from)).type).toBe('load.loaded');
    await c.request('setCoins', { player: 'p2', coins: 5 });
    await c.request('save', { player: 'p2' });
    await c.request('setCoins', { player: 'p2', coins: 9 }); // dies with the process
    await c.kill('SIGKILL');
    // Redis expires C's last beat on its own clock: that is when C reads as stopped.
    const remainingMs = await raw.pttl(presenceKey(run, c.jobId));
    const expiresAt = Date.now() + Math.max(remainingMs, 0);
    expect(remainingMs).toBeGreaterThan(0);
    expect(remainingMs).toBeLessThanOrEqual(scaledMs(10_000));
    from = b.messages.length;
    const { value: loaded, figures } = await timed(async () => {
      await b.request('join', { player: 'p2' });
      return b.settled('p2', 10_000, from);
    }, CHAIN);
    expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
    expect(await b.request('profile', { player: 'p2' })).toMatchObject({ coins: 5 });
    expect((await record('p2')).meta.lock.jobId).toBe(b.jobId);
    expect(b.warnings).toContain(
      `took the lock of p2 from server ${c.jobId}, which stopped beating presence.`,
    );
    // Two empty reads a beat apart, the first no earlier than the expiry.
    expect(loaded.time).toBeGreaterThanOrEqual(expiresAt + beatMs - 5);
    console.info(`takeover ${loaded.time - expiresAt} ms after C's presence expired`);
    const bound = expiresAt + beatMs + parkMaxMs + figures.slackMs;
    expect(loaded.time, describeProbe('the takeover', figures)).toBeLessThanOrEqual(bound);
  });
});
