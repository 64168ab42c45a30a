/**
 * `POST /grant`, a payment webhook's stand-in, on real server processes and Redis: the grant
 * is applied once, by whichever server holds the player, and the player's client is told.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DRIVER_NAME } from '../src/driver-name.js';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';
import { redisProbePorts } from './support/redis-probe-ports.js';

const SCALE = 0.1;

describe('POST /grant', () => {
  const env = { REDIS_URL: inject('redisUrl') };
  const run = Date.now();
  let a: GameServerProcess;
  let b: GameServerProcess;
  /** This process's own connection to the servers' Redis, to read a record as stored. */
  const ports = redisProbePorts(inject('redisUrl'));
  const storedCoins = async (user: string) => {
    const record = (await ports.store.get(`${DRIVER_NAME}/${user}`)) as { data: { coins: number } };
    return record.data.coins;
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([
      GameServerProcess.start({ jobId: `grant-a-${run}`, scale: SCALE, env }),
      GameServerProcess.start({ jobId: `grant-b-${run}`, scale: SCALE, env }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await ports.close();
  });

  const post = (server: GameServerProcess, body: string) =>
    fetch(new URL('/grant', server.httpUrl), { method: 'POST', body });

  it('gives coins to a player online on another server at once, and tells their client', async () => {
    const user = `online-${run}`;
    const player = await PlayerClient.connect(a.url, user);
    expect(await player.next('loaded')).toMatchObject({ type: 'loaded', coins: 0 });
    expect(await player.earn(5)).toBe(5);
    // The webhook reaches server B; the player plays on A, and is not kicked.
    expect(await b.grant(user, 100, `receipt-${run}-1`)).toEqual({ outcome: 'queued' });
    expect(await player.next('gift', 5_000)).toEqual({
      type: 'gift',
      id: `receipt-${run}-1`,
      coins: 100,
      total: 105,
    });
    // Told once the save carrying it landed: the stored record has it.
    expect(await storedCoins(user)).toBe(105);
    expect(await player.earn(1)).toBe(106);
    await player.close();
  });

  it('gives coins to an offline player at their next join', async () => {
    const user = `offline-${run}`;
    expect(await a.grant(user, 40, `receipt-${run}-2`)).toEqual({ outcome: 'queued' });
    const player = await PlayerClient.connect(b.url, user);
    expect(await player.next('loaded')).toMatchObject({ type: 'loaded', coins: 40 });
    expect(await player.next('gift', 5_000)).toMatchObject({ coins: 40, total: 40 });
    await player.close();
  });

  it('applies the same receipt once: the redelivery answers duplicate', async () => {
    const user = `twice-${run}`;
    const receipt = `receipt-${run}-3`;
    const player = await PlayerClient.connect(a.url, user);
    await player.next('loaded');
    expect(await a.grant(user, 10, receipt)).toEqual({ outcome: 'queued' });
    expect(await player.next('gift', 5_000)).toMatchObject({ id: receipt, total: 10 });
    expect(await b.grant(user, 10, receipt)).toEqual({ outcome: 'duplicate' });
    expect(await a.grant(user, 10, receipt)).toEqual({ outcome: 'duplicate' });
    // A later grant arrives alone: the duplicates added nothing.
    expect(await a.grant(user, 1, `${receipt}-later`)).toEqual({ outcome: 'queued' });
    expect(await player.next('gift', 5_000)).toMatchObject({ id: `${receipt}-later`, total: 11 });
    expect(await player.earn(0)).toBe(11);
    await player.close();
  });

  it('refuses a bad grant with a 400 saying why, and sends nothing', async () => {
    const user = `bad-${run}`;
    const receipt = `receipt-${run}-4`;
    const refusals: Array<[string, string]> = [
      ['not json', 'the body is not JSON'],
      ['[]', 'expected a JSON object: { "player", "coins", "receipt" }'],
      [JSON.stringify({ coins: 5, receipt }), 'player must be a non-empty string'],
      [JSON.stringify({ player: user, coins: 5 }), 'receipt must be a non-empty string'],
      [
        JSON.stringify({ player: user, coins: -5, receipt }),
        'coins must be a whole number from 1 to 1000000',
      ],
      [
        JSON.stringify({ player: user, coins: 1.5, receipt }),
        'coins must be a whole number from 1 to 1000000',
      ],
    ];
    for (const [body, error] of refusals) {
      const response = await post(a, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error });
    }
    // The driver's own refusal (an id over 128 bytes), with its code.
    const long = await post(
      a,
      JSON.stringify({ player: user, coins: 5, receipt: 'r'.repeat(200) }),
    );
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ code: 'Data.InvalidArgument' });
    // Nothing was written: the receipt is new to the player, whose coins start at 0.
    expect(await a.grant(user, 5, receipt)).toEqual({ outcome: 'queued' });
    const player = await PlayerClient.connect(a.url, user);
    expect(await player.next('loaded')).toMatchObject({ coins: 5 });
    await player.close();
  });

  it('a player gives coins to a friend on another server: taken off once, arrived once, told with who sent them', async () => {
    const [alice, bob] = [`alice-${run}`, `bob-${run}`];
    const onA = await PlayerClient.connect(a.url, alice);
    const onB = await PlayerClient.connect(b.url, bob);
    await Promise.all([onA.next('loaded'), onB.next('loaded')]);
    expect(await onA.earn(20)).toBe(20);
    expect(await onA.give(bob, 5)).toBe(15);
    expect(await onB.next('gift', 5_000)).toMatchObject({ coins: 5, from: alice, total: 5 });
    // Refused with nothing changed: more than they have, or to themselves.
    await expect(onA.give(bob, 16)).rejects.toThrow('you can give 1 to 15 coins');
    await expect(onA.give(alice, 1)).rejects.toThrow('Data.InvalidArgument');
    expect(await onA.earn(0)).toBe(15);
    expect(await onB.earn(0)).toBe(5);
    await Promise.all([onA.close(), onB.close()]);
  });
});
