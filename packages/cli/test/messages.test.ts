/**
 * `send`, `inbox` and `inbox --drop` against real Redis, and the inspector's count of pending
 * messages: a send reaches a live holder through core's `DataDriver.send` (queued, then
 * duplicate); a message whose handler always throws stays visible, and a drop removes it
 * without applying it and without writing the profile; hostile ids and bodies print escaped.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { acted } from '../src/format.js';
import type { DropResult, InboxListing, Inspection, SendCliResult } from '../src/index.js';
import { cli, json } from './support/cli.js';
import { type GameServer, gameServer, type Player } from './support/game-server.js';
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

const on = (prefix: string) => ['--redis', url(), '--prefix', prefix];

/** A server whose `onMessage` adds `coins` and throws on `{ "throws": true }`. */
async function holder(prefix: string) {
  const applied: string[] = [];
  const server = await gameServer({
    url: url(),
    prefix,
    jobId: `game-${running.length}`,
    onMessage: (profile, message) => {
      const body = message.body as { coins?: number; throws?: boolean };
      if (body.throws) throw new Error('this handler refuses it');
      (profile.data as Player).coins += body.coins ?? 0;
      applied.push(message.id);
    },
  });
  running.push(server);
  return { server, applied };
}

/** Resolves with the first event of `server` that `match`es, from now on. */
function next(server: GameServer, match: (event: DataDriverEvent) => boolean) {
  return new Promise<DataDriverEvent>((resolve) => {
    const off = server.driver.on((event) => {
      if (match(event)) {
        off();
        resolve(event);
      }
    });
  });
}

describe('send', () => {
  it('queues a message the live holder applies on the nudge; the same id again is a duplicate', async () => {
    const prefix = uniquePrefix('send');
    const { server, applied } = await holder(prefix);
    await server.join('u1');
    const appliedEvent = next(server, (event) => event.type === 'message.applied');
    const run = await cli([
      ...on(prefix),
      'send',
      'PlayerData',
      'u1',
      '{"coins":100}',
      '--id',
      'r1',
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^queued "r1" in PlayerData#inbox\/u1: its holder applies it once/);
    await expect(appliedEvent).resolves.toMatchObject({ ids: ['r1'], jobId: 'game-0' });
    expect(server.driver.profile('u1')!.data.coins).toBe(100);
    const again = json<SendCliResult>(
      await cli([
        ...on(prefix),
        '--json',
        'send',
        'PlayerData',
        'u1',
        '{"coins":100}',
        '--id',
        'r1',
      ]),
    );
    expect(again).toEqual({ driver: 'PlayerData', key: 'u1', id: 'r1', outcome: 'duplicate' });
    expect(applied).toEqual(['r1']);
  });

  it('a body that is not JSON, or one core refuses, is a typed error with nothing written; no --id is usage', async () => {
    const prefix = uniquePrefix('send-bad');
    await raw.set(`${prefix}marker`, '1'); // the snapshot's prefix is not empty
    const before = await redisSnapshot(raw, prefix);
    const notJson = await cli([
      ...on(prefix),
      'send',
      'PlayerData',
      'u1',
      '{coins:1}',
      '--id',
      'x',
    ]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^Data\.InvalidArgument: the message must be JSON/);
    const badId = await cli([...on(prefix), 'send', 'PlayerData', 'u1', '1', '--id', '']);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toMatch(/^Data\.InvalidArgument: /);
    const noId = await cli([...on(prefix), 'send', 'PlayerData', 'u1', '1']);
    expect(noId.code).toBe(2);
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
  });
});

describe('inbox', () => {
  it('a prefix or driver name with nothing under it is Data.Misconfigured, as for inspect', async () => {
    const prefix = uniquePrefix('inbox-empty');
    const empty = await cli([...on(prefix), 'inbox', 'PlayerData', 'u1']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^Data\.Misconfigured: nothing is stored in /);
    await cli([...on(prefix), 'send', 'PlayerData', 'u1', '1', '--id', 'g1']);
    const otherDriver = await cli([...on(prefix), 'inbox', 'Inventory', 'u1']);
    expect(otherDriver.stderr).toMatch(/^Data\.Misconfigured: no record of driver "Inventory"/);
    const otherKey = json<InboxListing>(
      await cli([...on(prefix), '--json', 'inbox', 'PlayerData', 'u2']),
    );
    expect(otherKey).toMatchObject({ pending: [], remembered: 0 });
  });

  it('lists pending messages, hostile ones escaped, and writes nothing; inspect counts them and ages the oldest', async () => {
    const prefix = uniquePrefix('inbox');
    const hostileId = 'gift-\u001b[2J\u009b31m\u202egnp.exe';
    const sent = Date.now();
    for (const [id, body] of [
      ['g1', '{"coins":5}'],
      [hostileId, JSON.stringify({ note: 'x\u001b]0;pwned\u0007\u2028y\u2066' })],
    ] as const) {
      await cli([...on(prefix), 'send', 'PlayerData', 'u1', body, '--id', id]);
    }
    const before = await redisSnapshot(raw, prefix);
    const text = await cli([...on(prefix), 'inbox', 'PlayerData', 'u1']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('PlayerData#inbox/u1');
    expect(text.stdout).toMatch(
      /^"g1" +\d{4}-\d\d-\d\dT.*Z \(\d+ ms ago\) +\d+ B +\{"coins":5\}$/m,
    );
    expect(text.stdout).toContain('"gift-\\u001b[2J\\u009b31m\\u202egnp.exe"');
    expect(text.stdout).toContain('{"note":"x\\u001b]0;pwned\\u0007\\u2028y\\u2066"}');
    // Nothing a terminal acts on reaches it: no escape, C1, separator or bidi character.
    const printed = [...text.stdout].filter((char) => char !== '\n');
    expect(printed.filter((char) => acted(char.codePointAt(0)!))).toEqual([]);
    expect(text.stdout).toMatch(/^2 pending; 0 id\(s\) remembered \(applied or dropped\)$/m);
    const listing = json<InboxListing>(
      await cli([...on(prefix), '--json', 'inbox', 'PlayerData', 'u1']),
    );
    expect(listing.pending.map((row) => row.id)).toEqual(['g1', hostileId]);
    expect(listing.pending[0]).toMatchObject({ body: { coins: 5 } });
    expect(listing.pending[0]!.at).toBeGreaterThanOrEqual(sent);
    expect(listing.pending[0]!.sizeBytes).toBe(
      Buffer.byteLength(
        JSON.stringify({ id: 'g1', body: { coins: 5 }, at: listing.pending[0]!.at }),
      ),
    );
    const inspection = json<Inspection>(
      await cli([...on(prefix), '--json', 'inspect', 'PlayerData', 'u1']),
    ).messages;
    expect(inspection).toMatchObject({ pending: 2, oldest: { id: 'g1' } });
    expect(inspection!.oldest!.ageMs).toBeGreaterThanOrEqual(0);
    expect(await redisSnapshot(raw, prefix)).toEqual(before);
  });

  it('a message whose handler always throws stays pending and shows in inspect; --drop removes it unapplied, writing only the inbox', async () => {
    const prefix = uniquePrefix('drop');
    const { server, applied } = await holder(prefix);
    await server.join('u1');
    const failed = next(server, (event) => event.type === 'message.failed');
    await cli([...on(prefix), 'send', 'PlayerData', 'u1', '{"throws":true}', '--id', 'bad']);
    await failed;
    const shown = await cli([...on(prefix), 'inspect', 'PlayerData', 'u1']);
    expect(shown.stdout).toMatch(/^ +messages +1 pending; oldest "bad", sent [\d.]+ (ms|s) ago/m);

    const store = new RedisStore({ client: raw, prefix });
    const record = JSON.stringify(await store.get('PlayerData/u1'));
    const refused = await cli([...on(prefix), 'inbox', 'PlayerData', 'u1', '--drop', 'bad']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Data\.InvalidArgument: drop needs --yes/);
    const unknown = await cli([
      ...on(prefix),
      'inbox',
      'PlayerData',
      'u1',
      '--drop',
      'nope',
      '--yes',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^Data\.InvalidArgument: "nope" is not pending in PlayerData#inbox\/u1/,
    );

    const dropped = json<DropResult>(
      await cli([...on(prefix), '--json', 'inbox', 'PlayerData', 'u1', '--drop', 'bad', '--yes']),
    );
    expect(dropped).toEqual({
      driver: 'PlayerData',
      key: 'u1',
      id: 'bad',
      dropped: true,
      appliedByHolder: false,
    });
    expect(JSON.stringify(await store.get('PlayerData/u1'))).toBe(record); // the profile untouched
    const listing = json<InboxListing>(
      await cli([...on(prefix), '--json', 'inbox', 'PlayerData', 'u1']),
    );
    expect(listing).toMatchObject({ pending: [], remembered: 1 });
    // Its id is remembered: a resend is a duplicate, and the holder never applies it.
    const resend = json<SendCliResult>(
      await cli([
        ...on(prefix),
        '--json',
        'send',
        'PlayerData',
        'u1',
        '{"coins":1}',
        '--id',
        'bad',
      ]),
    );
    expect(resend.outcome).toBe('duplicate');
    const inspected = json<Inspection>(
      await cli([...on(prefix), '--json', 'inspect', 'PlayerData', 'u1']),
    );
    expect(inspected.messages).toEqual({ pending: 0 });
    expect(applied).toEqual([]);
  });
});
