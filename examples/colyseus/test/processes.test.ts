/**
 * The example's Colyseus game as real processes (Colyseus's Redis presence and driver, DataDriver
 * on Redis) on the run's redis-server, played by the real colyseus.js client, with the handoff's
 * constants a tenth as long, as the testkit's real-backend scenarios and the example game
 * server run them.
 */
import { freePort, startTcpProxy, type TcpProxy } from '@datadriver/backends';
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import type { ServerPorts } from '@datadriver/testkit';
import { describeProbe, presenceExpiry, probed } from '@datadriver/testkit/cluster';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ColyseusProcess } from '../src/colyseus-process.js';
import { earn, joinRoom, leftWith } from '../src/player.js';

const SCALE = 0.1;
const scaledMs = (ms: number) => ms * SCALE;
const KICK = { code: 4100, reason: 'You joined another server.' };

const redisUrl = inject('redisUrl');
const redis = new Redis(redisUrl, RECOMMENDED_REDIS_OPTIONS);
const store = new RedisStore({ client: redis });
const probeMessenger = new RedisMessenger({ client: redis });
/** This process's own connections to the run's Redis: a probe times the machine beside a wait. */
const probePorts: ServerPorts = {
  store,
  presence: new RedisPresence({ client: redis }),
  messenger: probeMessenger,
};
let a: ColyseusProcess;
let b: ColyseusProcess;
let toA: TcpProxy;
/** A's address for clients: through the proxy, so a test can freeze a connection to A. */
let aUrl: string;
let next = 0;

function user(label: string): string {
  next += 1;
  return `${label}-${process.pid}-${next}`;
}

/**
 * Joins through `join`, a hand-over, and holds its load to the rules' live hand-over bound ("about
 * one save"; 1.5 s, scaled, is the fail-closed wait) plus the slack a probe measured beside it.
 */
async function handedOver<T extends { loadMs: number }>(join: () => Promise<T>): Promise<T> {
  const { value, figures } = await probed(probePorts, join);
  const bound = scaledMs(1_500) + figures.slackMs;
  expect(value.loadMs, describeProbe('the hand-over', figures)).toBeLessThanOrEqual(bound);
  return value;
}

async function lockHolder(id: string): Promise<string | undefined> {
  const record = (await store.get(`PlayerData/${id}`)) as { meta: { lock?: { jobId: string } } };
  return record?.meta.lock?.jobId;
}

beforeAll(async () => {
  const aPort = await freePort();
  toA = await startTcpProxy({ host: '127.0.0.1', port: aPort });
  aUrl = `ws://127.0.0.1:${toA.port}`;
  [a, b] = await Promise.all([
    ColyseusProcess.start({
      port: aPort,
      redisUrl,
      scale: SCALE,
      publicAddress: `127.0.0.1:${toA.port}`,
    }),
    ColyseusProcess.start({ port: await freePort(), redisUrl, scale: SCALE }),
  ]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await toA?.close();
  await probeMessenger.close();
  await redis.quit();
});

describe('a player moving between two Colyseus processes on one Redis', () => {
  it('a hop to a room on the other process while still connected is handed over in milliseconds, coins kept', async () => {
    const id = user('hop');
    let held = await joinRoom(aUrl, id);
    let coins = 0;
    const loadsMs: number[] = [];
    for (const to of [b.url, aUrl, b.url, aUrl, b.url]) {
      coins = await earn(held.room, 7); // unsaved where it is: the hand-over must carry it
      const kicked = leftWith(held.room);
      const moved = await handedOver(() => joinRoom(to, id));
      expect(moved.coins).toBe(coins);
      expect(await kicked).toEqual(KICK);
      expect(await lockHolder(id)).toBe(to === b.url ? b.processId : a.processId);
      loadsMs.push(moved.loadMs);
      held = moved;
    }
    console.log(`hand-over loads (ms): ${loadsMs.map((ms) => ms.toFixed(1)).join(', ')}`);
    await held.room.leave();
  });

  it('a join on the other process while the old socket lingers silently is handed over in milliseconds, coins kept', async () => {
    const id = user('stale');
    const onA = await joinRoom(aUrl, id);
    expect(await earn(onA.room, 9)).toBe(9);
    toA.freeze(); // the network dropped: no FIN, no RST; A still sees an open socket
    const onB = await handedOver(() => joinRoom(b.url, id));
    expect(onB.coins).toBe(9);
    expect(await lockHolder(id)).toBe(b.processId);
    console.log(`stale-socket hand-over load: ${onB.loadMs.toFixed(1)} ms`);
    await onB.room.leave();
  });

  it('leaving one room while another room of the same process keeps the player releases nothing', async () => {
    const id = user('rooms');
    const first = await joinRoom(b.url, id);
    const second = await joinRoom(b.url, id);
    expect(await earn(first.room, 4)).toBe(4);
    await first.room.leave();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the leave, had it released
    expect(await lockHolder(id)).toBe(b.processId);
    expect(await earn(second.room, 1)).toBe(5); // the same profile, still loaded
    await second.room.leave();
    await expect.poll(() => lockHolder(id), { timeout: 5_000 }).toBeUndefined();
    expect(((await store.get(`PlayerData/${id}`)) as { data: unknown }).data).toEqual({ coins: 5 });
  });
});

describe('a Colyseus process that stops', () => {
  it("SIGKILL: the player's next join elsewhere takes the lock after presence expiry (10 to 15 s, scaled), with the last save", async () => {
    const crashing = await ColyseusProcess.start({
      port: await freePort(),
      redisUrl,
      scale: SCALE,
    });
    const id = user('crash');
    try {
      const there = await joinRoom(crashing.url, id);
      await earn(there.room, 5);
      await new Promise((resolve) => setTimeout(resolve, scaledMs(30_000) + 500)); // one autosave
      await earn(there.room, 7); // unsaved when it dies
      await crashing.stop('SIGKILL');
      const killedAt = performance.now();
      // Its last beat expires on Redis's clock, at most a TTL after the kill (sooner when a late
      // beat timer put the kill more than a beat after that beat).
      const expiresAt = await presenceExpiry(probePorts.presence, crashing.processId);
      const { value, figures } = await probed(probePorts, async () => {
        const joined = await joinRoom(a.url, id);
        return { after: joined, at: performance.now() };
      });
      const { after, at } = value;
      const takeoverMs = at - killedAt;
      expect(after.coins).toBe(5);
      // Two empty reads a beat apart, the first no sooner than the expiry; at most 15 s after
      // the kill (expiry within 10 s, the beat, the retry spacing), plus the probe's slack.
      expect(at).toBeGreaterThanOrEqual(expiresAt + scaledMs(3_000) - 5);
      const bound = scaledMs(15_000) + figures.slackMs;
      expect(takeoverMs, describeProbe('the takeover', figures)).toBeLessThanOrEqual(bound);
      expect(a.output()).toContain(
        `took the lock of ${id} from server ${crashing.processId}, which stopped beating presence.`,
      );
      console.log(`crash takeover: ${takeoverMs.toFixed(0)} ms after SIGKILL`);
      await after.room.leave();
    } finally {
      await crashing.stop('SIGKILL');
    }
  });

  it('a graceful shutdown releases every profile: the other process loads them at once', async () => {
    const stopping = await ColyseusProcess.start({
      port: await freePort(),
      redisUrl,
      scale: SCALE,
    });
    const ids = [user('term'), user('term')];
    const rooms = [
      await joinRoom(stopping.url, ids[0]!),
      await joinRoom(stopping.url, ids[0]!),
      await joinRoom(stopping.url, ids[1]!),
    ];
    await earn(rooms[0]!.room, 3);
    await earn(rooms[2]!.room, 8);
    const left = rooms.map((joined) => leftWith(joined.room));
    expect(await stopping.stop('SIGTERM')).toBe(0);
    expect(stopping.output()).toContain('released 2, unreleased 0');
    for (const { code } of await Promise.all(left)) expect(code).toBe(4000); // Colyseus's own
    for (const [id, coins] of [
      [ids[0]!, 3],
      [ids[1]!, 8],
    ] as const) {
      expect(await lockHolder(id)).toBeUndefined();
      const there = await joinRoom(b.url, id);
      expect(there.coins).toBe(coins);
      expect(there.loadMs).toBeLessThan(200);
      await there.room.leave();
    }
  });
});
