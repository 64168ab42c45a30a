import { setTimeout as sleep } from 'node:timers/promises';
import { recordingLogger } from '@datadriver/testkit/cluster';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger } from '../src/index.js';
import { channelOf } from '../src/keys.js';
import { Clients, redisUrl, TEST_OPTIONS, uniquePrefix } from './support/redis.js';

const clients = new Clients();
let raw: Redis;

beforeAll(async () => {
  raw = await clients.open();
});
afterAll(() => clients.quitAll());

async function until(condition: () => boolean | Promise<boolean>, limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await sleep(10);
  }
}

/** This test's connections as Redis lists them, by the connection name they share. */
async function connectionsNamed(name: string): Promise<Array<{ id: string; sub: number }>> {
  const list = (await raw.client('LIST')) as string;
  return list
    .split('\n')
    .filter((line) => line.includes(` name=${name} `))
    .map((line) => ({
      id: /\bid=(\d+)/.exec(line)![1]!,
      sub: Number(/\bsub=(\d+)/.exec(line)![1]) + Number(/\bssub=(\d+)/.exec(line)?.[1] ?? 0),
    }));
}

async function messengerWithName(name: string, sharded = false) {
  const logger = recordingLogger();
  const client = await clients.open(redisUrl(), { ...TEST_OPTIONS, connectionName: name });
  const prefix = uniquePrefix('messenger-own');
  const messenger = new RedisMessenger({ client, prefix, sharded, logger });
  return { messenger, prefix, lines: logger.lines };
}

describe('RedisMessenger', () => {
  it('publishes JSON on the channel <prefix>{<topic>}:channel', async () => {
    const { messenger, prefix } = await messengerWithName(`pub-${process.pid}`);
    const listener = await clients.open();
    const payloads: string[] = [];
    listener.on('message', (_channel: string, payload: string) => void payloads.push(payload));
    await listener.subscribe(channelOf(prefix, 'CKHandoff_a'));
    await messenger.publish('CKHandoff_a', { T: 'R', D: 'PlayerData', K: 'p1' });
    await until(() => payloads.length > 0);
    expect(payloads).toEqual(['{"T":"R","D":"PlayerData","K":"p1"}']);
    expect(messenger.channelOf('CKHandoff_a')).toBe(`${prefix}{CKHandoff_a}:channel`);
  });

  it('ignores a payload that is not a JSON object with a debug line, and keeps delivering', async () => {
    const { messenger, prefix, lines } = await messengerWithName(`raw-${process.pid}`);
    const received: unknown[] = [];
    const subscription = await messenger.subscribe('t', (message) => void received.push(message));
    for (const payload of ['not json {', '[1,2]', '"text"', 'null']) {
      await raw.publish(channelOf(prefix, 't'), payload);
    }
    await messenger.publish('t', { n: 1 });
    await until(() => received.length > 0);
    expect(received).toEqual([{ n: 1 }]);
    const debug = lines.filter(
      (line) => line.level === 'debug' && line.message.startsWith('ignored'),
    );
    expect(debug.map((line) => line.message)).toEqual(
      Array(4).fill(`ignored a message on ${channelOf(prefix, 't')} that is not a JSON object`),
    );
    expect(debug[0]?.details).toEqual({ payload: 'not json {' });
    await subscription.unsubscribe();
  });

  it('delivers to every subscription of a topic, each its own copy, and survives a throwing handler', async () => {
    const { messenger, lines } = await messengerWithName(`many-${process.pid}`);
    const first: Array<Record<string, unknown>> = [];
    const second: Array<Record<string, unknown>> = [];
    const a = await messenger.subscribe('t', (message) => {
      first.push(message as Record<string, unknown>);
      (message as Record<string, unknown>).n = 'changed';
    });
    const b = await messenger.subscribe('t', (message) => void second.push(message as never));
    const c = await messenger.subscribe('t', () => {
      throw new Error('handler bug');
    });
    await messenger.publish('t', { n: 1 });
    await until(() => first.length > 0 && second.length > 0);
    expect(second).toEqual([{ n: 1 }]);
    expect(lines.some((line) => line.level === 'error' && /handler bug/.test(line.message))).toBe(
      true,
    );
    await a.unsubscribe();
    await c.unsubscribe();
    await messenger.publish('t', { n: 2 });
    await until(() => second.length > 1);
    expect(second).toEqual([{ n: 1 }, { n: 2 }]);
    expect(first).toHaveLength(1);
    await b.unsubscribe();
  });

  it('subscribes on one dedicated connection, closed when the last subscription ends', async () => {
    const name = `dedicated-${process.pid}`;
    const { messenger } = await messengerWithName(name);
    expect(await connectionsNamed(name)).toHaveLength(1);
    const one = await messenger.subscribe('one', () => undefined);
    const two = await messenger.subscribe('two', () => undefined);
    const connections = await connectionsNamed(name);
    expect(connections.map((c) => c.sub).sort()).toEqual([0, 2]);
    await one.unsubscribe();
    await until(async () => (await connectionsNamed(name)).some((c) => c.sub === 1));
    await two.unsubscribe();
    await until(async () => (await connectionsNamed(name)).length === 1);
  });

  for (const sharded of [false, true]) {
    it(`re-subscribes after Redis drops the subscriber connection (${sharded ? 'sharded' : 'classic'})`, async () => {
      const name = `resubscribe-${sharded}-${process.pid}`;
      const { messenger } = await messengerWithName(name, sharded);
      const received: unknown[] = [];
      const subscription = await messenger.subscribe('t', (m) => void received.push(m));
      const [subscriber] = (await connectionsNamed(name)).filter((c) => c.sub > 0);
      await raw.client('KILL', 'ID', subscriber!.id);
      await until(async () => {
        const now = await connectionsNamed(name);
        return now.some((c) => c.sub > 0 && c.id !== subscriber!.id);
      });
      await messenger.publish('t', { after: 'reconnect' });
      await until(() => received.length > 0);
      expect(received).toEqual([{ after: 'reconnect' }]);
      await subscription.unsubscribe();
    });
  }

  it('close() ends every subscription and the dedicated connection', async () => {
    const name = `close-${process.pid}`;
    const { messenger } = await messengerWithName(name);
    const received: unknown[] = [];
    await messenger.subscribe('t', (m) => void received.push(m));
    await messenger.close();
    await until(async () => (await connectionsNamed(name)).length === 1);
    await messenger.publish('t', { n: 1 });
    await sleep(100);
    expect(received).toEqual([]);
  });
});
