/**
 * `restore` and `erase` against real Redis, through core's own restoreAt and erase: a live
 * holder is asked to hand over (its player kicked with the seed's message) before anything is
 * written; a holder that cannot answer keeps its lock; a refusal or a "no" writes nothing.
 */
import { fileURLToPath } from 'node:url';
import { RedisPresence, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EraseResult, RestoreResult } from '../src/index.js';
import { cli, json, spawnCli } from './support/cli.js';
import { type GameServer, gameServer } from './support/game-server.js';
import { uniquePrefix } from './support/names.js';
import { redisSnapshot } from './support/redis-snapshot.js';

const url = () => inject('redisUrl');
let raw: Redis;
const running: GameServer[] = [];

beforeAll(() => {
  raw = new Redis(url(), { maxRetriesPerRequest: 1, commandTimeout: 5_000 });
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});
afterAll(() => raw?.disconnect());

/** A server holding `key` live, with saves of `coins` in order; the times each landed. */
async function holding(prefix: string, key: string, coins: number[], handoff = true) {
  const server = await gameServer({ url: url(), prefix, jobId: `game-${running.length}`, handoff });
  running.push(server);
  await server.join(key);
  const profile = server.driver.profile(key)!;
  const times: number[] = [];
  for (const value of coins) {
    profile.data.coins = value;
    await profile.save();
    times.push(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { server, profile, times };
}

/** The global options that point the CLI at `prefix` on the run's Redis. */
const on = (prefix: string) => ['--redis', url(), '--prefix', prefix];
const storeOf = (prefix: string) => new RedisStore({ client: raw, prefix, versions: {} });

describe('restore', () => {
  it('asks the live holder to hand over, then writes the version of that time as the record', async () => {
    const prefix = uniquePrefix('restore');
    const { server, times } = await holding(prefix, 'u1', [1200, 0]);
    const at = new Date(times[0]! + 10).toISOString();
    const result = json<RestoreResult>(
      await cli([...on(prefix), '--json', 'restore', 'PlayerData', 'u1', '--at', at, '--yes']),
    );
    expect(result).toMatchObject({ holder: 'game-0', holderAnswer: 'alive', reason: 'unlocked' });
    expect(result.requests).toBeGreaterThanOrEqual(1);
    // About one save, not a lock wait.
    expect(result.waitedMs).toBeLessThan(3_000);
    expect(server.host.kicks).toEqual([
      { player: 'u1', message: 'Support is working on your data. Please rejoin in a moment.' },
    ]);
    const record = await storeOf(prefix).get('PlayerData/u1');
    expect(record?.data).toEqual({ coins: 1200 });
    // Released by the CLI: the next join loads it at once.
    expect(record?.meta).not.toHaveProperty('lock');
    // The holder ended its session on the CLI's request and released; the CLI's load then found
    // the record unlocked (reason above): nothing was written under the holder's lock.
    const onHolder = server.events
      .filter((event) => 'key' in event && event.key === 'u1')
      .map((event) =>
        event.type === 'handoff.request.received' ? `${event.type}:${event.action}` : event.type,
      );
    expect(onHolder).toEqual(
      expect.arrayContaining([
        'handoff.request.received:kick',
        'profile.released',
        'handoff.reply.sent',
      ]),
    );
    expect(onHolder.indexOf('handoff.request.received:kick')).toBeLessThan(
      onHolder.indexOf('profile.released'),
    );
    const versions = await storeOf(prefix).versions!.list('PlayerData/u1');
    expect(versions.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a time older than every kept version, touching nothing', async () => {
    const prefix = uniquePrefix('restore-old');
    await holding(prefix, 'u1', [5]);
    const before = await redisSnapshot(raw, prefix);
    const run = await cli([...on(prefix), 'restore', 'PlayerData', 'u1', '--at', '2d', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Data\.VersionNotFound: no version of PlayerData\/u1 as old as/);
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
  });

  it('without --yes and no terminal, or with "n" at the prompt, writes nothing', async () => {
    const prefix = uniquePrefix('restore-ask');
    const { server, times } = await holding(prefix, 'u1', [7, 8]);
    const args = [...on(prefix), 'restore', 'PlayerData', 'u1', '--at', String(times[0]! + 10)];
    const before = await redisSnapshot(raw, prefix);
    const noTerminal = await cli(args);
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toMatch(
      /^Data\.InvalidArgument: restore needs --yes when there is no terminal/,
    );
    const no = await cli(args, 'n');
    expect(no.code).toBe(1);
    expect(no.stderr).toMatch(/restore +PlayerData\/u1 to the version written/);
    expect(no.stderr).toMatch(/data then +\{"coins":7\}/);
    expect(no.stderr).toMatch(/Cancelled: restore cancelled; nothing was written/);
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
    expect(server.host.kicks).toEqual([]);
    const yes = await cli(args, 'y');
    expect(yes.code).toBe(0);
    expect((await storeOf(prefix).get('PlayerData/u1'))?.data).toEqual({ coins: 7 });
  });
});

describe('restore, schemas', () => {
  const record = (coins: number, schema: number, version: number) => ({
    data: { coins },
    meta: { version, schema },
  });

  it('keeps a record at its schema; refuses a version of another schema, touching nothing', async () => {
    const prefix = uniquePrefix('restore-schema');
    const store = storeOf(prefix);
    await store.update('PlayerData/u1', () => record(10, 1, 1), { keepVersion: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const schema1 = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.update('PlayerData/u1', () => record(20, 2, 2), { keepVersion: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const schema2 = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.update('PlayerData/u1', () => record(0, 2, 3), { keepVersion: true });
    const base = [...on(prefix), 'restore', 'PlayerData', 'u1', '--yes'];
    const before = await redisSnapshot(raw, prefix);
    const refused = await cli([...base, '--at', String(schema1)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Data\.InvalidArgument: the version of .* has schema 1 and the record schema 2: the CLI runs no game's migrations/,
    );
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
    expect((await cli([...base, '--at', String(schema2)])).code).toBe(0);
    expect(await store.get('PlayerData/u1')).toMatchObject({
      data: { coins: 20 },
      meta: { schema: 2 },
    });
  });
});

describe('restore --schema', () => {
  /** `restore u1 --yes --at <a time just after the first save>` on `prefix`. */
  const restoreFirst = (prefix: string, times: readonly number[]) => [
    ...on(prefix),
    ...['restore', 'PlayerData', 'u1', '--yes', '--at', String(times[0]! + 10)],
  ];
  const schemaModule = (name: string) =>
    fileURLToPath(new URL(`./support/${name}`, import.meta.url));

  it('refuses a version that fails the schema with Data.InvalidData naming the path, touching nothing; restores one that passes', async () => {
    const prefix = uniquePrefix('restore-zod');
    const { server, times } = await holding(prefix, 'u1', [5, -3, 7]);
    const base = [...on(prefix), 'restore', 'PlayerData', 'u1', '--yes'];
    const withSchema = ['--schema', schemaModule('coins-schema.mjs')];
    const before = await redisSnapshot(raw, prefix);
    // The built bin, as its own process, importing the module as a person's shell would.
    const refused = await spawnCli([...base, '--at', String(times[1]! + 10), ...withSchema]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Data\.InvalidData: the data of PlayerData\/u1 does not match the schema at data\.coins; the version of \S+ was not restored; nothing was written\n$/,
    );
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
    expect(server.host.kicks).toEqual([]);
    const restored = await spawnCli([...base, '--at', String(times[0]! + 10), ...withSchema]);
    expect(restored.stderr).not.toMatch(/Data\./);
    expect(restored.code).toBe(0);
    expect((await storeOf(prefix).get('PlayerData/u1'))?.data).toEqual({ coins: 5 });
    expect(server.host.kicks).toEqual([
      { player: 'u1', message: 'Support is working on your data. Please rejoin in a moment.' },
    ]);
  });

  it('without --schema the data is not checked: the same version is restored', async () => {
    const prefix = uniquePrefix('restore-unchecked');
    const { times } = await holding(prefix, 'u1', [-3, 7]);
    const run = await cli(restoreFirst(prefix, times));
    expect(run.code).toBe(0);
    expect((await storeOf(prefix).get('PlayerData/u1'))?.data).toEqual({ coins: -3 });
  });

  it('takes the export named schema; refuses a module with no Standard Schema or none at that path, touching nothing', async () => {
    const prefix = uniquePrefix('restore-modules');
    const { times } = await holding(prefix, 'u1', [-3, 7]);
    const base = restoreFirst(prefix, times);
    const before = await redisSnapshot(raw, prefix);
    const named = await cli([...base, '--schema', schemaModule('named-schema.mjs')]);
    expect(named.stderr).toMatch(
      /^Data\.InvalidData: .* does not match the schema at data\.coins;/,
    );
    const noSchema = await cli([...base, '--schema', schemaModule('names.ts')]);
    expect(noSchema.stderr).toMatch(
      /^Data\.InvalidArgument: --schema \S+names\.ts exports no Standard Schema v1 \(as default or as `schema`\); nothing was touched\n$/,
    );
    const missing = await cli([...base, '--schema', schemaModule('no-such-schema.mjs')]);
    expect(missing.stderr).toMatch(
      /^Data\.InvalidArgument: --schema \S+ could not be imported; nothing was touched/,
    );
    for (const run of [named, noSchema, missing]) expect(run.code).toBe(1);
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
  });
});

describe('erase', () => {
  it('run as its own process: the live holder hands over, the record and every version go', async () => {
    const prefix = uniquePrefix('erase');
    const { server } = await holding(prefix, 'u1', [3, 4]);
    server.driver.profile('u1')!.addUserId('steam:9');
    await server.driver.profile('u1')!.save();
    const run = await spawnCli([...on(prefix), '--json', 'erase', 'PlayerData', 'u1', '--yes']);
    const result = json<EraseResult>(run);
    expect(result).toMatchObject({
      erased: true,
      versions: 2,
      holder: 'game-0',
      holderAnswer: 'alive',
    });
    expect(result.reason).toBe('unlocked');
    expect(server.host.kicks).toEqual([
      { player: 'u1', message: 'Support is working on your data. Please rejoin in a moment.' },
    ]);
    expect(await storeOf(prefix).get('PlayerData/u1')).toBeUndefined();
    expect(await storeOf(prefix).versions!.list('PlayerData/u1')).toEqual([]);
    const found = json<{ matches: unknown[] }>(
      await cli([...on(prefix), '--json', 'find-user', 'steam:9']),
    );
    expect(found.matches).toEqual([]);
  });

  it('a holder that answers no request (handoff off) keeps its lock: Data.Locked, nothing written', async () => {
    const prefix = uniquePrefix('erase-old');
    const { server } = await holding(prefix, 'u1', [3], false);
    const before = await redisSnapshot(raw, prefix);
    const run = await cli([
      ...on(prefix),
      '--job-id',
      'cli-1',
      '--lock-wait',
      '1',
      'erase',
      'PlayerData',
      'u1',
      '--yes',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /Data\.Locked: profile is locked by another server \(key u1, server game-0/,
    );
    expect(server.driver.profile('u1')?.active).toBe(true);
    // Only the CLI's own presence beat was written meanwhile, under its own key.
    const after = await redisSnapshot(raw, prefix);
    expect(after.delete(new RedisPresence({ client: raw, prefix }).keyOf('cli-1'))).toBe(true);
    expect(after).toEqual(before);
  });

  it('nothing to erase: says so and writes nothing', async () => {
    const prefix = uniquePrefix('erase-none');
    await holding(prefix, 'someone-else', [1]);
    const before = await redisSnapshot(raw, prefix);
    const run = await cli([...on(prefix), 'erase', 'PlayerData', 'nobody', '--yes']);
    expect(run).toMatchObject({
      code: 0,
      stdout: 'nothing to erase: no record and no kept version of PlayerData/nobody\n',
    });
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
  });
});
