/**
 * `datadriver kick` against real Redis, as its own process: the live holder is asked to
 * release the profile and kicks its player with the operator's reason; a holder that answers
 * no request keeps its lock (`Data.Locked`), never taken by age; nothing held, nothing written.
 */
import { RedisPresence, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { KickResult } from '../src/index.js';
import { cli, json } from './support/cli.js';
import { type GameServer, gameServer } from './support/game-server.js';
import { uniquePrefix } from './support/names.js';
import { redisSnapshot } from './support/redis-snapshot.js';

const url = () => inject('redisUrl');
let raw: Redis;
const running: GameServer[] = [];
const REASON = 'Maintenance: back in 5 minutes.';

beforeAll(() => {
  raw = new Redis(url(), { maxRetriesPerRequest: 1, commandTimeout: 5_000 });
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});
afterAll(() => raw?.disconnect());

async function holding(prefix: string, key: string, handoff = true) {
  const server = await gameServer({ url: url(), prefix, jobId: `game-${running.length}`, handoff });
  running.push(server);
  await server.join(key);
  const profile = server.driver.profile(key)!;
  profile.data.coins = 42;
  return { server, profile };
}

const on = (prefix: string) => ['--redis', url(), '--prefix', prefix];

describe('kick', () => {
  it('the live holder kicks its player with the reason, its leave save lands, and the lock ends released', async () => {
    const prefix = uniquePrefix('kick');
    const { server } = await holding(prefix, 'u1');
    const result = json<KickResult>(
      await cli([...on(prefix), '--json', 'kick', 'PlayerData', 'u1', '--reason', REASON, '--yes']),
    );
    expect(result).toMatchObject({ ended: true, holder: 'game-0', message: REASON });
    expect(result.requests).toBeGreaterThanOrEqual(1);
    expect(server.host.kicks).toEqual([{ player: 'u1', message: REASON }]);
    const record = await new RedisStore({ client: raw, prefix }).get('PlayerData/u1');
    expect(record).toMatchObject({ data: { coins: 42 } });
    expect((record as { meta: { lock?: unknown } }).meta.lock).toBeUndefined();
  });

  it('a holder that answers no request (handoff off) keeps its lock: Data.Locked, nothing written', async () => {
    const prefix = uniquePrefix('kick-old');
    const { server } = await holding(prefix, 'u1', false);
    const before = await redisSnapshot(raw, prefix);
    const run = await cli([
      ...on(prefix),
      '--job-id',
      'cli-1',
      '--lock-wait',
      '1',
      'kick',
      'PlayerData',
      'u1',
      '--reason',
      REASON,
      '--yes',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Data\.Locked: profile is locked by another server \(key u1/);
    expect(server.driver.profile('u1')?.active).toBe(true);
    expect(server.host.kicks).toEqual([]);
    const after = await redisSnapshot(raw, prefix);
    expect(after.delete(new RedisPresence({ client: raw, prefix }).keyOf('cli-1'))).toBe(true);
    expect(after).toEqual(before);
  });

  it('no session to end: says so and writes nothing; a reason no request could carry is refused', async () => {
    const prefix = uniquePrefix('kick-none');
    await holding(prefix, 'someone-else');
    const before = await redisSnapshot(raw, prefix);
    const run = await cli([...on(prefix), 'kick', 'PlayerData', 'nobody', '--reason', REASON]);
    expect(run).toMatchObject({
      code: 0,
      stdout: 'no session to end: PlayerData/nobody is not held; nothing was written\n',
    });
    const long = await cli([
      ...on(prefix),
      'kick',
      'PlayerData',
      'someone-else',
      '--reason',
      'x'.repeat(201),
      '--yes',
    ]);
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('Data.InvalidArgument: a kick message must be 1 to 200');
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
  });
});
