/**
 * The bus as an attacker with access to it uses it, over real Redis pub/sub: a flood of
 * spoofed release requests against the receive budget, and unsigned or wrongly signed
 * requests against a server that requires signatures. A sniffer subscribed to every channel
 * of the bus's prefix sees each message that was sent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DataDriver, Handoff, type HandoffSigning, type Profile } from '@datadriver/core';
import type { Logger } from '@datadriver/core/ports';
import { topicOf } from '@datadriver/core/rules';
import { recordingLogger } from '@datadriver/testkit/cluster';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger, RedisPresence, RedisStore } from '../src/index.js';
import { Clients, redisUrl, uniquePrefix } from './support/redis.js';

type Bag = { coins: number };
type Heard = { channel: string; message: Record<string, unknown> };

const FLEET_KEY = 'the fleet key, 16 bytes or more';

describe('the handoff bus under attack, on Redis', () => {
  const clients = new Clients();
  let client: Redis;
  let store: RedisStore;
  const opened: Array<{ close(): Promise<unknown> } | { destroy(): Promise<unknown> }> = [];

  beforeAll(async () => {
    client = await clients.open(redisUrl());
    store = new RedisStore({ client, prefix: uniquePrefix('buslimits') });
  });
  // Drivers before their handoffs, and the bus last: each test's servers are gone before the next.
  afterEach(async () => {
    for (const resource of opened.splice(0).reverse()) {
      await ('close' in resource ? resource.close() : resource.destroy());
    }
  });
  afterAll(() => clients.quitAll());

  /** A bus of its own, with a sniffer on all of its channels. */
  async function bus() {
    const prefix = uniquePrefix('bus');
    const messenger = new RedisMessenger({ client, prefix });
    const presence = new RedisPresence({ client, prefix });
    opened.push(messenger);
    const heard: Heard[] = [];
    const sniffer = await clients.open(redisUrl());
    sniffer.on('pmessage', (_pattern: string, channel: string, message: string) => {
      heard.push({ channel, message: JSON.parse(message) });
    });
    await sniffer.psubscribe(`${prefix}*`);
    const channelOf = (jobId: string) => messenger.channelOf(topicOf(jobId));
    /** Every reply (T "R") the bus carried, to any server. */
    const replies = () => heard.filter(({ message }) => message.T === 'R');
    return { messenger, presence, heard, replies, channelOf };
  }

  type Bus = Awaited<ReturnType<typeof bus>>;

  /** Server `jobId` on `on`, handoff on, with its lines kept. */
  async function server(
    on: Bus,
    jobId: string,
    options: { limits?: { receivePerMinute: number }; signing?: HandoffSigning } = {},
  ) {
    const log = recordingLogger();
    const { messenger, presence } = on;
    const handoff = new Handoff({ jobId, messenger, presence, logger: log, ...options });
    const driver = new DataDriver<Bag>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store,
      jobId,
      handoff,
      messenger,
      presence,
      lockWaitSeconds: 5,
      logger: log as Logger,
    });
    opened.push(handoff, driver);
    const events: string[] = [];
    driver.on((event) => void events.push(event.type));
    await waitFor(() => handoff.subscribed);
    const warnings = (start: string) =>
      log.lines.filter((line) => line.level === 'warn' && line.message.startsWith(start));
    return { driver, handoff, events, warnings };
  }

  const stored = async (key: string) =>
    JSON.parse((await client.hget(store.keyOf(`PlayerData/${key}`), 'record')) ?? 'null');

  it('1,000 spoofed requests for a held key: at most the receive budget is answered, one warning, nobody kicked, the save lands', async () => {
    const on = await bus();
    const a = await server(on, 'A', { limits: { receivePerMinute: 60 } }); // 10 at once, 1 a second
    const held: Profile<Bag> = await a.driver.load('p1');
    const started = Date.now();
    const flood = client.pipeline();
    for (let n = 1; n <= 1_000; n += 1) {
      // Each from another made-up server, naming a token A does not hold: each one A reads
      // would cost it a store check and a reply.
      const request = { T: 'Q', D: 'PlayerData', K: 'p1', R: `X${n}`, L: `t${n}` };
      flood.publish(on.channelOf('A'), JSON.stringify(request));
    }
    await flood.exec();
    held.data.coins = 7;
    await held.save();
    await waitFor(
      () => on.heard.filter(({ channel }) => channel === on.channelOf('A')).length >= 1_000,
    );
    await sleep(300); // the replies of what A accepted reach the sniffer
    const budget = 10 + Math.ceil((Date.now() - started) / 1_000);
    const replies = on.replies();
    expect(replies.length).toBeGreaterThan(0); // what A accepted, it answered
    expect(replies.length).toBeLessThanOrEqual(budget);
    expect(a.events.filter((type) => type === 'handoff.reply.sent')).toHaveLength(replies.length);
    for (const { channel, message } of replies) {
      expect(channel).toMatch(/X\d+/);
      expect(message).toEqual({ T: 'R', D: 'PlayerData', K: 'p1' });
    }
    expect(a.warnings('handoff dropped a message it was sent')).toHaveLength(1);
    expect(a.events).not.toContain('profile.kicked');
    expect(a.events).not.toContain('profile.releasing');
    expect(held.active).toBe(true);
    expect(await stored('p1')).toMatchObject({
      data: { coins: 7 },
      meta: { lock: { token: held.lockToken } },
    });
    await held.release();
  });

  it('with signing on, unsigned and wrongly signed requests over the bus are dropped (one warning each), unanswered; a signed one moves the player', async () => {
    const on = await bus();
    const signing = { key: FLEET_KEY };
    const a = await server(on, 'A', { signing });
    const held: Profile<Bag> = await a.driver.load('p2');
    held.data.coins = 3;
    await held.save();
    // Token-less: on a fleet without signing, each would make A release p2.
    for (let n = 0; n < 20; n += 1) {
      const request = { T: 'Q', D: 'PlayerData', K: 'p2', R: 'M' };
      await client.publish(on.channelOf('A'), JSON.stringify(request));
      await client.publish(on.channelOf('A'), JSON.stringify({ ...request, S: 'f'.repeat(64) }));
    }
    // Signed with another key, by a real handoff on the bus.
    const mallory = new Handoff({
      jobId: 'M',
      messenger: on.messenger,
      presence: on.presence,
      signing: { key: 'not the fleet key, but as long' },
      logger: recordingLogger(),
    });
    opened.push(mallory);
    for (let n = 0; n < 5; n += 1) await mallory.request('PlayerData', 'p2', 'A');
    await waitFor(
      () =>
        a.warnings('handoff dropped an unsigned').length > 0 &&
        a.warnings('handoff dropped a wrongly signed').length > 0,
    );
    await sleep(300);
    expect(a.warnings('handoff dropped an unsigned')).toHaveLength(1);
    expect(a.warnings('handoff dropped a wrongly signed')).toHaveLength(1);
    expect(on.heard.filter(({ channel }) => channel === on.channelOf('A'))).toHaveLength(45);
    expect(on.replies()).toEqual([]);
    expect(a.events).not.toContain('handoff.request.received');
    expect(held.active).toBe(true);
    expect((await stored('p2')).meta.lock.token).toBe(held.lockToken);
    // The fleet's own server asks, signed: A releases and B loads what A saved.
    const b = await server(on, 'B', { signing });
    const moved = await b.driver.load('p2');
    expect(held.active).toBe(false);
    expect(moved.data).toEqual({ coins: 3 });
    expect((await stored('p2')).meta.lock.token).toBe(moved.lockToken);
    expect(on.replies()).toEqual([
      {
        channel: on.channelOf('B'),
        message: { T: 'R', D: 'PlayerData', K: 'p2', S: expect.any(String) },
      },
    ]);
    await moved.release();
  });
});

async function waitFor(condition: () => boolean, limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await sleep(10);
  }
}
