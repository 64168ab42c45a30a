/**
 * `inspect` against real Redis: the lock and its holder's presence, the trade marker and its
 * journal, user ids, size, versions, and what core's rules decide now, for a live holder, a
 * stopped one, a stale lock, an old build's lock and a missing record.
 */
import type { StoreRecord } from '@datadriver/core/ports';
import { lockedRecord, markedRecord, preparedJournal, toStoreRecord } from '@datadriver/core/rules';
import { RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Inspection } from '../src/index.js';
import { cli, json } from './support/cli.js';
import { type GameServer, gameServer } from './support/game-server.js';
import { uniquePrefix } from './support/names.js';

const url = () => inject('redisUrl');
let raw: Redis;
let store: RedisStore;
let prefix: string;
let server: GameServer;
const base = () => ['--redis', url(), '--prefix', prefix];

beforeAll(async () => {
  raw = new Redis(url(), { maxRetriesPerRequest: 1, commandTimeout: 5_000 });
  prefix = uniquePrefix('inspect');
  store = new RedisStore({ client: raw, prefix, versions: { keep: 20 } });
  server = await gameServer({ url: url(), prefix, jobId: 'game-a' });
  await server.join('u1');
  const profile = server.driver.profile('u1')!;
  profile.data.coins = 40;
  profile.addUserId('steam:7656');
  await profile.save();
  profile.data.coins = 55;
  await profile.save();
});

afterAll(async () => {
  await server?.stop();
  raw?.disconnect();
});

describe('inspect, a profile held by a live server', () => {
  it('names the holder, its token and flag, reads it alive, and decides "locked"', async () => {
    const stored = (await store.get('PlayerData/u1')) as StoreRecord;
    const result = json<Inspection>(
      await cli([...base(), '--json', 'inspect', 'PlayerData', 'u1']),
    );
    const profile = server.driver.profile('u1')!;
    expect(result).toMatchObject({
      driver: 'PlayerData',
      key: 'u1',
      storeKey: 'PlayerData/u1',
      found: true,
      sizeBytes: Buffer.byteLength(JSON.stringify(stored)),
      userIds: ['steam:7656'],
      lock: { jobId: 'game-a', token: profile.lockToken, presence: true },
      holder: { answer: 'alive' },
      verdict: { state: 'locked', decision: { kind: 'locked', stale: false } },
    });
    expect(result.lock!.ageMs).toBeGreaterThanOrEqual(0);
    expect(result.lock!.ageMs).toBeLessThan(10_000);
    // Redis keeps the beat's expiry: the age is the TTL minus what is left, within a beat.
    const beatAge = (result.holder as { beatAgeMs: number }).beatAgeMs;
    expect(beatAge).toBeGreaterThanOrEqual(0);
    expect(beatAge).toBeLessThanOrEqual(3_500);
    expect(result.writes).toBe((stored.meta as { version: number }).version);
    // One version per save that changed the data: the two saves.
    expect(result.versions!.length).toBe(2);
    const times = result.versions!.map((version) => version.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('prints the same for people, one row each', async () => {
    const run = await cli([...base(), 'inspect', 'PlayerData', 'u1']);
    expect(run.code).toBe(0);
    const token = server.driver.profile('u1')!.lockToken;
    const row = run.stdout.split('\n').find((line) => line.trimStart().startsWith('lock '));
    expect(row).toMatch(
      /^ +lock +server game-a, token \S+, last write [\d.]+ m?s ago, presence flag yes$/,
    );
    expect(row).toContain(`token ${token}, `);
    expect(run.stdout).toMatch(/holder +alive \(last beat [\d.]+ m?s ago\)/);
    expect(run.stdout).toMatch(/user ids +steam:7656/);
    expect(run.stdout).toMatch(/a load now +locked: locked by server game-a/);
  });
});

describe('inspect, locks as core decides them', () => {
  const write = async (key: string, record: StoreRecord | null) =>
    store.update(`PlayerData/${key}`, () => record);
  const lock = (jobId: string, time: number, presence: boolean) =>
    toStoreRecord(
      lockedRecord(undefined, { coins: 7 }, { jobId, token: `t-${jobId}`, now: time, presence }),
    );
  const verdictOf = async (key: string) =>
    json<Inspection>(await cli([...base(), '--json', 'inspect', 'PlayerData', key]));

  it('a holder that stopped beating: "holder-stopped", a join would steal it', async () => {
    await write('stopped', lock('crashed-1', Date.now() - 5_000, true));
    const result = await verdictOf('stopped');
    expect(result.holder).toEqual({ answer: 'stopped' });
    expect(result.verdict).toMatchObject({
      state: 'holder-stopped',
      decision: { kind: 'locked' },
      whenProvenStopped: { kind: 'take', reason: 'stolen' },
    });
  });

  it('stale by age, holder alive: "protected"; holder stopped: "stale", taken by age', async () => {
    const old = Date.now() - 300_000;
    await write('protected', lock('game-a', old, true));
    expect((await verdictOf('protected')).verdict).toMatchObject({
      state: 'protected',
      decision: { kind: 'locked', stale: true },
    });
    await write('stale', lock('crashed-2', old, true));
    expect((await verdictOf('stale')).verdict).toMatchObject({
      state: 'stale',
      decision: { kind: 'take', reason: 'stale' },
    });
  });

  it("an old build's lock (no presence flag) is neither stolen nor protected", async () => {
    await write('no-flag', lock('crashed-3', Date.now() - 5_000, false));
    const result = await verdictOf('no-flag');
    expect(result.verdict.state).toBe('locked');
    expect(result.verdict.whenProvenStopped).toBeUndefined();
    expect(result.verdict.explanation).toContain('no presence flag');
    await write('no-flag-old', lock('crashed-3', Date.now() - 300_000, false));
    expect((await verdictOf('no-flag-old')).verdict).toMatchObject({
      state: 'stale',
      decision: { kind: 'take', reason: 'stale' },
    });
  });

  it('an unlocked record is takeable; a missing one is "no record", from the defaults', async () => {
    await write('released', { data: { coins: 1 }, meta: { version: 3, releasedToken: 'r-1' } });
    const released = await verdictOf('released');
    expect(released).toMatchObject({
      found: true,
      releasedToken: 'r-1',
      verdict: { state: 'takeable', decision: { kind: 'take', reason: 'unlocked' } },
    });
    expect(released.lock).toBeUndefined();
    const missing = await verdictOf('never-played');
    expect(missing).toMatchObject({
      found: false,
      verdict: { state: 'takeable', decision: { kind: 'take', reason: 'new' } },
    });
  });

  it("a pending trade: its journal's state and what the next load settles", async () => {
    const writer = { jobId: 'crashed-4', token: 't-4', now: Date.now() - 1_000, presence: true };
    const before = lockedRecord(undefined, { coins: 10 }, writer);
    const journal = 'PlayerData#trade/tr-1';
    await write(
      'trading',
      toStoreRecord(markedRecord(before, { coins: 10 }, { id: 'tr-1', journal }, writer)),
    );
    await store.update(journal, () =>
      toStoreRecord({ ...preparedJournal('tr-1', { trading: { coins: 5 } }, Date.now()) } as never),
    );
    const prepared = await verdictOf('trading');
    expect(prepared.trade).toEqual({
      id: 'tr-1',
      journal,
      state: 'prepared',
      outcome: 'aborted',
      settledBySave: false,
      appliesJournalData: false,
    });
    await store.update(journal, (current) => ({ ...current!, state: 'committed' }));
    expect((await verdictOf('trading')).trade).toMatchObject({
      state: 'committed',
      outcome: 'committed',
      appliesJournalData: true,
    });
    await store.update(journal, () => null);
    expect((await verdictOf('trading')).trade).toMatchObject({
      state: 'missing',
      outcome: 'aborted',
    });
  });
});

describe('inspect, wrong addresses', () => {
  it('a prefix with nothing under it, or a driver name nobody uses: Data.Misconfigured', async () => {
    const empty = await cli([
      '--redis',
      url(),
      '--prefix',
      'no-such-prefix:',
      'inspect',
      'PlayerData',
      'u1',
    ]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(
      /^Data\.Misconfigured: nothing is stored in .*prefix "no-such-prefix:": check --prefix/,
    );
    const driver = await cli([...base(), 'inspect', 'PlayerDta', 'u1']);
    expect(driver.code).toBe(1);
    expect(driver.stderr).toMatch(/^Data\.Misconfigured: no record of driver "PlayerDta"/);
  });

  it('an unreachable Redis is Data.Unavailable; a URL of another scheme Data.InvalidArgument', async () => {
    const down = await cli([
      '--redis',
      'redis://127.0.0.1:1',
      '--json',
      'inspect',
      'PlayerData',
      'u1',
    ]);
    expect(down.code).toBe(1);
    expect(JSON.parse(down.stdout).error).toMatchObject({ code: 'Data.Unavailable' });
    expect(JSON.parse(down.stdout).error.message).toContain('ECONNREFUSED');
    const scheme = await cli(['--redis', 'http://127.0.0.1:6379', 'inspect', 'PlayerData', 'u1']);
    expect(scheme.code).toBe(1);
    expect(scheme.stderr).toMatch(
      /^Data\.InvalidArgument: --redis needs a redis:\/\/ or rediss:\/\/ URL/,
    );
  });

  it('no store named, or an unknown command: usage, exit 1 and 2', async () => {
    const none = await cli(['inspect', 'PlayerData', 'u1']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^Data\.InvalidArgument: name the store/);
    expect((await cli(['inspekt'])).code).toBe(2);
  });
});
