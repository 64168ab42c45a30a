/**
 * `servers`, `versions` and `find-user` against real Redis, and the promise of every read-only
 * command: the backend is byte for byte what it was (every key DUMPed before and after).
 */
import { RedisPresence, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Beat, UserMatch, VersionRow } from '../src/index.js';
import { cli, json } from './support/cli.js';
import { type GameServer, gameServer } from './support/game-server.js';
import { uniquePrefix } from './support/names.js';
import { redisSnapshot } from './support/redis-snapshot.js';

const url = () => inject('redisUrl');
const fast = { beatSeconds: 0.2, presenceTtlSeconds: 1 };
let raw: Redis;
let prefix: string;
let servers: GameServer[] = [];
const savedAt: number[] = [];
const base = () => ['--redis', url(), '--prefix', prefix];
/** The Redis key of a store key's record, as the adapter names it. */
const recordName = (storeKey: string) => new RedisStore({ client: raw, prefix }).keyOf(storeKey);

beforeAll(async () => {
  raw = new Redis(url(), { maxRetriesPerRequest: 1, commandTimeout: 5_000 });
  prefix = uniquePrefix('read');
  const a = await gameServer({ url: url(), prefix, jobId: 'game-a', timings: fast });
  const b = await gameServer({ url: url(), prefix, jobId: 'game-b', timings: fast });
  const inventory = await gameServer({
    url: url(),
    prefix,
    jobId: 'game-c',
    name: 'Inventory',
    timings: fast,
  });
  servers = [a, b, inventory];
  await a.join('u1');
  const profile = a.driver.profile('u1')!;
  profile.addUserId('steam:1');
  for (const coins of [100, 250, 0]) {
    profile.data.coins = coins;
    await profile.save();
    savedAt.push(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await b.join('u2');
  b.driver.profile('u2')!.addUserId('steam:2');
  await b.driver.profile('u2')!.save();
  await inventory.join('u1');
  inventory.driver.profile('u1')!.addUserId('steam:1');
  await inventory.driver.profile('u1')!.save();
  // Someone else's hash under the prefix: not a DataDriver record.
  await raw.hset(recordName('PlayerData/foreign'), 'owner', 'someone-else');
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  raw?.disconnect();
});

describe('servers', () => {
  it('lists the servers beating presence now with the age of each beat, and not a crashed one once its key expired', async () => {
    const live = json<{ servers: Beat[] }>(
      await cli([...base(), '--presence-ttl', '1', '--json', 'servers']),
    ).servers;
    expect(live.map((server) => server.jobId)).toEqual(['game-a', 'game-b', 'game-c']);
    for (const server of live) {
      expect(server.beatAgeMs).toBeGreaterThanOrEqual(0);
      expect(server.beatAgeMs).toBeLessThanOrEqual(1_000);
      expect(server.expiresInMs).toBeGreaterThan(0);
    }
    await servers[1]!.crash();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const after = json<{ servers: Beat[] }>(await cli([...base(), '--json', 'servers']));
    expect(after.servers.map((server) => server.jobId)).toEqual(['game-a', 'game-c']);
    const text = await cli([...base(), 'servers']);
    expect(text.stdout).toMatch(/^server +last beat +expires in\ngame-a +[\d.]+ m?s ago/);
  });
});

describe('versions', () => {
  it("lists a profile's kept versions newest first, with each one's data", async () => {
    const rows = json<{ versions: VersionRow[] }>(
      await cli([...base(), '--json', 'versions', 'PlayerData', 'u1', '--data']),
    ).versions;
    expect(rows.map((row) => row.data)).toEqual([{ coins: 0 }, { coins: 250 }, { coins: 100 }]);
  });

  it('--before and --after bound them; --limit counts them', async () => {
    const before = new Date(savedAt[1]! + 10).toISOString();
    const rows = json<{ versions: VersionRow[] }>(
      await cli([
        ...base(),
        '--json',
        'versions',
        'PlayerData',
        'u1',
        '--data',
        '--before',
        before,
      ]),
    ).versions;
    expect(rows.map((row) => row.data)).toEqual([{ coins: 250 }, { coins: 100 }]);
    const limited = json<{ versions: VersionRow[] }>(
      await cli([
        ...base(),
        '--json',
        'versions',
        'PlayerData',
        'u1',
        '--limit',
        '1',
        '--after',
        '1h',
      ]),
    ).versions;
    expect(limited).toHaveLength(1);
    const bad = await cli([...base(), 'versions', 'PlayerData', 'u1', '--before', 'yesterday']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Data\.InvalidArgument: --before needs a time/);
  });
});

describe('find-user', () => {
  it('finds every profile tagged with a user id, across drivers, and skips foreign keys', async () => {
    const found = json<{ matches: UserMatch[]; foreign: number }>(
      await cli([...base(), '--json', 'find-user', 'steam:1']),
    );
    expect(found.matches.map((match) => `${match.driver}/${match.key}`)).toEqual([
      'Inventory/u1',
      'PlayerData/u1',
    ]);
    expect(found.foreign).toBe(1);
    const one = json<{ matches: UserMatch[] }>(
      await cli([...base(), '--json', 'find-user', 'steam:1', '--driver', 'Inventory']),
    );
    expect(one.matches.map((match) => match.driver)).toEqual(['Inventory']);
    const none = await cli([...base(), 'find-user', 'steam:404']);
    expect(none.stdout).toMatch(
      /^no profile is tagged with user id steam:404; 3 profile record\(s\) scanned, 1 key\(s\)/,
    );
  });
});

describe('read-only commands', () => {
  it('leave every key byte for byte as it was', async () => {
    // The servers stay up (their beats rewrite the same value) but save nothing meanwhile.
    const before = await redisSnapshot(raw, prefix);
    expect([...before.keys()]).toEqual(
      expect.arrayContaining([
        recordName('PlayerData/u1'),
        `${recordName('PlayerData/u1')}:versions`,
        new RedisPresence({ client: raw, prefix }).keyOf('game-a'),
        recordName('PlayerData/foreign'),
      ]),
    );
    const commands = [
      ['inspect', 'PlayerData', 'u1', '--data', '--versions', '10'],
      ['inspect', 'PlayerData', 'missing'],
      ['inspect', 'PlayerData', 'foreign'],
      ['servers'],
      ['versions', 'PlayerData', 'u1', '--data'],
      ['find-user', 'steam:1'],
    ];
    for (const command of commands) {
      for (const format of [[], ['--json']]) await cli([...base(), ...format, ...command]);
    }
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
  });

  it('a foreign value is reported as such, not overwritten', async () => {
    const run = await cli([...base(), 'inspect', 'PlayerData', 'foreign']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Data\.InvalidRecord: .*not a DataDriver record/);
    expect(await raw.hgetall(recordName('PlayerData/foreign'))).toEqual({ owner: 'someone-else' });
  });
});
