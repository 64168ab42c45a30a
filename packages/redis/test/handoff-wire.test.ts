/**
 * The seed's wire format on a real redis-server, read with a raw SUBSCRIBE (SSUBSCRIBE for
 * sharded pub/sub) on ioredis, past the adapter: the channel is `<prefix>{CKHandoff_<jobId>}:channel`
 * and the payload the exact bytes of `{ T: "Q", D, K, R, L? }` and `{ T: "R", D, K }`. And the
 * other way: a request published raw, as another implementation may write it, is acted on.
 */
import {
  FOREIGN_REQUEST_BYTES,
  REPLY_BYTES,
  sendWireSamples,
  WIRE_SAMPLES,
  wireHolder,
} from '@datadriver/testkit/cluster';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisMessenger } from '../src/index.js';
import { Clients, uniquePrefix } from './support/redis.js';

const clients = new Clients();
afterEach(() => clients.quitAll());

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the messages did not all arrive within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each([
  {
    mode: 'classic pub/sub',
    sharded: false,
    subscribe: 'subscribe',
    publish: 'publish',
    event: 'messageBuffer',
  },
  {
    mode: 'sharded pub/sub',
    sharded: true,
    subscribe: 'ssubscribe',
    publish: 'spublish',
    event: 'smessageBuffer',
  },
] as const)('the handoff wire format on Redis, $mode', ({ sharded, subscribe, publish, event }) => {
  it('puts the exact bytes of a request (with and without a token) and a reply on the handoff channels', async () => {
    const prefix = uniquePrefix('wire');
    const raw = await clients.open();
    const received: Array<{ topic: string; bytes: string }> = [];
    raw.on(event, (channel: Buffer, payload: Buffer) => {
      const topic = /\{(CKHandoff_[^}]+)\}:channel$/.exec(channel.toString())?.[1] ?? '?';
      received.push({ topic, bytes: payload.toString('utf8') });
    });
    const channels = ['server-a', 'server-b'].map((id) => `${prefix}{CKHandoff_${id}}:channel`);
    for (const channel of channels) await raw[subscribe](channel);
    const messenger = new RedisMessenger({ client: await clients.open(), prefix, sharded });
    await sendWireSamples(messenger);
    await until(() => received.length === WIRE_SAMPLES.length);
    expect(received).toEqual(WIRE_SAMPLES);
    await messenger.close();
  });

  it('acts on a request published raw in another field order with an unknown field, and replies with the exact bytes', async () => {
    const prefix = uniquePrefix('wire-in');
    const raw = await clients.open();
    const replies: string[] = [];
    raw.on(event, (_channel: Buffer, payload: Buffer) => replies.push(payload.toString('utf8')));
    await raw[subscribe](`${prefix}{CKHandoff_server-b}:channel`);
    const messenger = new RedisMessenger({ client: await clients.open(), prefix, sharded });
    const a = await wireHolder(messenger);
    try {
      const publisher = await clients.open();
      await publisher[publish](`${prefix}{CKHandoff_server-a}:channel`, FOREIGN_REQUEST_BYTES);
      await a.released();
      await until(() => replies.length > 0);
      expect(a.events.find((e) => e.type === 'handoff.request.received')).toMatchObject({
        key: 'user-42',
        requester: 'server-b',
        action: 'kick',
      });
      expect(a.kicks()).toEqual(['You joined another server.']);
      expect(replies).toEqual([REPLY_BYTES]);
    } finally {
      await a.close();
      await messenger.close();
    }
  });
});
