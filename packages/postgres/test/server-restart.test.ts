/**
 * PostgreSQL restarted in the middle of a run (a fast shutdown: every session ended, then the
 * server started again on the same data and port). Every save that resolved, before, during or
 * after it, is kept: the store keeps a version of each save, so each acknowledged one can be
 * found afterwards. The saves that rejected did so with a typed error, the driver's health
 * went critical on them and ok again a window after the last, and the listening connection
 * came back by itself.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type PostgresBackend, startPostgres } from '@datadriver/backends';
import { DataDriver, DataDriverError, ErrorCode } from '@datadriver/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureSchema, PostgresMessenger, PostgresPresence, PostgresStore } from '../src/index.js';
import { Pools, quiet } from './support/postgres.js';

const PLAYERS = ['p0', 'p1', 'p2', 'p3'];
const SCHEMA = 'restart';
const pools = new Pools();
let postgres: PostgresBackend;

beforeAll(async () => {
  // A server of this file's own (DATABASE_URL's cannot be restarted by a test).
  postgres = await startPostgres({ env: {} });
}, 60_000);

afterAll(async () => {
  await pools.endAll();
  await postgres?.stop();
});

it('loses no acknowledged save across a restart, fails the others with typed errors (driver.health critical, then ok), and listens again', async () => {
  const pool = pools.open(postgres.url, { max: 8 });
  await ensureSchema(pool, { schema: SCHEMA });
  const store = new PostgresStore({
    pool,
    schema: SCHEMA,
    logger: quiet,
    versions: { keep: 100_000 },
  });
  const messenger = new PostgresMessenger({ pool, schema: SCHEMA, logger: quiet });
  const driver = new DataDriver<{ coins: number }>({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store,
    messenger,
    presence: new PostgresPresence({ pool, schema: SCHEMA }),
    jobId: 'restart-A',
    handoff: false,
    logger: quiet,
    health: { failures: 5, windowSeconds: 1 },
  });
  const health: Array<{ state: string; code?: string }> = [];
  driver.on((event) => {
    if (event.type === 'driver.health')
      health.push({ state: event.state, code: event.error?.code });
  });
  const heard: unknown[] = [];
  await messenger.subscribe('news', (message) => heard.push(message));
  const profiles = await Promise.all(PLAYERS.map((player) => driver.load(player)));

  const acknowledged = new Map<string, number>();
  const everyAcknowledged = new Map<string, number[]>(PLAYERS.map((player) => [player, []]));
  const attempted = new Map<string, number>();
  const failures: unknown[] = [];
  let restarted = false;
  let savesAfterRestart = 0;
  const saveLoop = async (index: number) => {
    const profile = profiles[index]!;
    const player = PLAYERS[index]!;
    for (let coins = 1; !restarted || savesAfterRestart < 40; coins += 1) {
      profile.data.coins = coins;
      attempted.set(player, coins);
      try {
        await profile.save();
        acknowledged.set(player, coins);
        everyAcknowledged.get(player)?.push(coins);
        if (restarted) savesAfterRestart += 1;
      } catch (error) {
        failures.push(error);
        await sleep(20);
      }
    }
  };
  const loops = PLAYERS.map((_, index) => saveLoop(index));
  await sleep(300);
  const before = new Map(acknowledged);
  await postgres.kill();
  await sleep(200); // saves meet a server that is gone
  await postgres.restart();
  restarted = true;
  await Promise.all(loops);

  // Saves went on before the restart and again after it; some met the outage, typed.
  for (const player of PLAYERS) expect(before.get(player)).toBeGreaterThan(0);
  expect(failures.length).toBeGreaterThan(0);
  for (const failure of failures) {
    expect(DataDriverError.isInstance(failure), String(failure)).toBe(true);
    expect([ErrorCode.Unavailable, ErrorCode.Timeout, ErrorCode.BackendFailed]).toContain(
      (failure as DataDriverError).code,
    );
  }
  // Nothing acknowledged is lost: each acknowledged save is a kept version, and the record
  // holds at least the last one.
  for (const player of PLAYERS) {
    const key = `PlayerData/${player}`;
    const kept = await store.versions?.list(key);
    const keptCoins = new Set<number>();
    for (const version of kept ?? []) {
      const record = await store.versions?.read(key, version.id);
      const coins = (record?.data as { coins?: number } | undefined)?.coins;
      if (coins !== undefined) keptCoins.add(coins);
    }
    const lost = everyAcknowledged.get(player)?.filter((coins) => !keptCoins.has(coins));
    expect(lost, `${player}'s acknowledged saves missing after the restart`).toEqual([]);
    const stored = (await store.get(key))?.data as { coins: number };
    expect(stored.coins).toBeGreaterThanOrEqual(acknowledged.get(player)!);
    expect(stored.coins).toBeLessThanOrEqual(attempted.get(player)!);
  }
  // The outage's failures made the driver critical, with the backend's typed error.
  expect(health[0]?.state).toBe('critical');
  expect([ErrorCode.Unavailable, ErrorCode.Timeout, ErrorCode.BackendFailed]).toContain(
    health[0]?.code,
  );
  // And ok again a window (1 s) after the last failure.
  await expect.poll(() => driver.health.state, { timeout: 5_000, interval: 100 }).toBe('ok');
  // Each event a change (a stall longer than the window mid-outage may make it ok, then
  // critical again), the last one ok.
  const states = health.map(({ state }) => state);
  expect(states.every((state, index) => index === 0 || state !== states[index - 1])).toBe(true);
  expect(states.at(-1)).toBe('ok');
  await driver.close();
  // The listening connection was made again and listens to its channel again.
  await expect
    .poll(
      async () => {
        await messenger.publish('news', { n: 1 });
        return heard.length;
      },
      { timeout: 10_000, interval: 200 },
    )
    .toBeGreaterThan(0);
  await messenger.close();
}, 60_000);
