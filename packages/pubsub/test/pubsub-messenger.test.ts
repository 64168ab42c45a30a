/** What the messenger creates in a project, and how it settles what it receives. */
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { recordingLogger } from '@datadriver/testkit/cluster';
import type { PubSub } from '@google-cloud/pubsub';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  encodeTopic,
  PubSubMessenger,
  type PubSubMessengerOptions,
  TOPIC_ATTRIBUTE,
} from '../src/index.js';
import { emulatorClient, PROJECT_ID, uniqueId } from './support/clients.js';
import { sleep, until } from './support/until.js';

let admin: PubSub;
const clients: PubSub[] = [];
const messengers: PubSubMessenger[] = [];

beforeAll(() => {
  admin = emulatorClient(inject('pubsubEmulatorHost'));
  clients.push(admin);
});
afterAll(async () => {
  await Promise.all(messengers.map((messenger) => messenger.destroy()));
  await Promise.all(clients.map((client) => client.close()));
});

/** A messenger with its own client, on a topic of its own unless `options` name one. */
function newMessenger(options: Partial<PubSubMessengerOptions> = {}) {
  const client = emulatorClient(inject('pubsubEmulatorHost'));
  const logger = recordingLogger();
  const messenger = new PubSubMessenger({
    client,
    topicName: uniqueId('messenger'),
    logger,
    ...options,
  });
  clients.push(client);
  messengers.push(messenger);
  return { messenger, logger };
}

const exists = async (subscriptionName: string) =>
  (await admin.subscription(subscriptionName).exists())[0];

function inbox() {
  const messages: unknown[] = [];
  return { messages, handler: (message: unknown) => void messages.push(message) };
}

describe('what it creates', () => {
  it('one shared topic (datadriver-handoff by default), made on first use', async () => {
    const { messenger } = newMessenger({ topicName: undefined });
    expect(messenger.topicName).toBe('datadriver-handoff');
    await messenger.publish('CKHandoff_nobody', { n: 1 });
    expect(await admin.topic('datadriver-handoff').exists()).toEqual([true]);
  });

  it('per subscribe, a subscription filtered to its topic, expiring a day after it is abandoned', async () => {
    const { messenger } = newMessenger();
    const subscription = await messenger.subscribe('CKHandoff_job-1', () => undefined);
    expect(subscription.name).toMatch(
      new RegExp(`^projects/${PROJECT_ID}/subscriptions/datadriver-CKHandoff_job-1-[0-9a-f]{8}$`),
    );
    const [metadata] = await admin.subscription(subscription.name).getMetadata();
    expect(metadata.topic).toBe(`projects/${PROJECT_ID}/topics/${messenger.topicName}`);
    expect(metadata.filter).toBe(`attributes.${TOPIC_ATTRIBUTE} = "CKHandoff_job-1"`);
    // The client hands int64 durations back as strings.
    expect(Number(metadata.expirationPolicy?.ttl?.seconds)).toBe(86_400);
    expect(Number(metadata.messageRetentionDuration?.seconds)).toBe(600);
    expect(Number(metadata.retryPolicy?.minimumBackoff?.seconds)).toBe(1);
    expect(Number(metadata.retryPolicy?.maximumBackoff?.seconds)).toBe(10);
  });

  it('takes its names and lifetimes from the options', async () => {
    const { messenger } = newMessenger({
      subscriptionPrefix: 'game-eu-',
      expirationSeconds: 2 * 86_400,
      retentionSeconds: 3_600,
    });
    const subscription = await messenger.subscribe('CKHandoff_job-2', () => undefined);
    expect(subscription.name).toMatch(/\/subscriptions\/game-eu-CKHandoff_job-2-[0-9a-f]{8}$/);
    const [metadata] = await admin.subscription(subscription.name).getMetadata();
    expect(Number(metadata.expirationPolicy?.ttl?.seconds)).toBe(2 * 86_400);
    expect(Number(metadata.messageRetentionDuration?.seconds)).toBe(3_600);
  });

  it('encodes a topic with any characters into a valid id and a quote-free filter, and delivers', async () => {
    const { messenger } = newMessenger();
    const topic = 'CKHandoff_job "quoted" ü/π*!';
    const box = inbox();
    const subscription = await messenger.subscribe(topic, box.handler);
    const [metadata] = await admin.subscription(subscription.name).getMetadata();
    expect(metadata.filter).toBe(
      `attributes.${TOPIC_ATTRIBUTE} = "CKHandoff_job%20%22quoted%22%20%C3%BC%2F%CF%80%2A%21"`,
    );
    await messenger.publish(topic, { n: 1 });
    await until(() => box.messages.length > 0, 5_000, 'the delivery');
    expect(box.messages).toEqual([{ n: 1 }]);
  });

  it('refuses a topic too long for a filter with Data.InvalidArgument, creating nothing', async () => {
    const { messenger } = newMessenger();
    await messenger.publish('CKHandoff_first', { n: 1 }); // the topic exists
    const failure = await messenger
      .subscribe(`CKHandoff_${'x'.repeat(250)}`, () => undefined)
      .catch((error: unknown) => error);
    expect(DataDriverError.is(failure, ErrorCode.InvalidArgument)).toBe(true);
    const [subscriptions] = await admin.topic(messenger.topicName).getSubscriptions();
    expect(subscriptions).toEqual([]);
  });
});

describe('unsubscribe and destroy', () => {
  it('unsubscribe closes and deletes its subscription, once', async () => {
    const { messenger } = newMessenger();
    const kept = await messenger.subscribe('CKHandoff_kept', () => undefined);
    const gone = await messenger.subscribe('CKHandoff_gone', () => undefined);
    await gone.unsubscribe();
    expect(await exists(gone.name)).toBe(false);
    expect(await exists(kept.name)).toBe(true);
    await expect(gone.unsubscribe()).resolves.toBeUndefined();
  });

  it('destroy deletes every subscription left, then refuses publish and subscribe with Data.Closed', async () => {
    const { messenger } = newMessenger();
    const one = await messenger.subscribe('CKHandoff_one', () => undefined);
    const two = await messenger.subscribe('CKHandoff_two', () => undefined);
    await messenger.destroy();
    expect([await exists(one.name), await exists(two.name)]).toEqual([false, false]);
    const publish = await messenger.publish('CKHandoff_one', { n: 1 }).catch((e: unknown) => e);
    const subscribe = await messenger.subscribe('CKHandoff_one', () => {}).catch((e: unknown) => e);
    expect(DataDriverError.is(publish, ErrorCode.Closed)).toBe(true);
    expect(DataDriverError.is(subscribe, ErrorCode.Closed)).toBe(true);
    await expect(messenger.destroy()).resolves.toBeUndefined();
  });

  it('warns when its subscription is deleted behind its back, and unsubscribes cleanly after', async () => {
    const { messenger, logger } = newMessenger();
    const subscription = await messenger.subscribe('CKHandoff_orphan', () => undefined);
    await sleep(100); // the stream is open
    await admin.subscription(subscription.name).delete();
    await until(() => logger.lines.some((line) => line.level === 'warn'), 5_000, 'the warning');
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(
      /^Data\.Misconfigured: pulling from Pub\/Sub subscription \S+ failed \(the topic or subscription does not exist.*; messages to CKHandoff_orphan will not arrive until it is subscribed again$/,
    );
    await expect(subscription.unsubscribe()).resolves.toBeUndefined();
    expect(logger.lines).toContainEqual({
      level: 'debug',
      message: expect.stringContaining('was already gone'),
    });
  });
});

describe('receiving', () => {
  it('fans a message out to every subscription of its topic, and to no other', async () => {
    const { messenger: sender } = newMessenger({ topicName: 'fan-out-topic' });
    const { messenger: receiver } = newMessenger({ topicName: 'fan-out-topic' });
    const [first, second, other] = [inbox(), inbox(), inbox()];
    await receiver.subscribe('CKHandoff_fan', first.handler);
    await receiver.subscribe('CKHandoff_fan', second.handler);
    await receiver.subscribe('CKHandoff_fan-other', other.handler);
    await sender.publish('CKHandoff_fan', { n: 1 });
    await until(
      () => first.messages.length > 0 && second.messages.length > 0,
      5_000,
      'both deliveries',
    );
    await sleep(100);
    expect([first.messages, second.messages, other.messages]).toEqual([[{ n: 1 }], [{ n: 1 }], []]);
  });

  it('nacks a message whose handler threw, and Pub/Sub delivers it again', async () => {
    const { messenger, logger } = newMessenger();
    const calls: unknown[] = [];
    await messenger.subscribe('CKHandoff_throws', (message) => {
      calls.push(message);
      if (calls.length === 1) throw new Error('not now');
    });
    await messenger.publish('CKHandoff_throws', { n: 7 });
    await until(() => calls.length === 2, 5_000, 'the redelivery');
    expect(calls).toEqual([{ n: 7 }, { n: 7 }]);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      message: expect.stringMatching(
        /handler of CKHandoff_throws threw .* nacked for redelivery: not now$/,
      ),
    });
    await sleep(300); // acknowledged the second time: it does not come back
    expect(calls).toHaveLength(2);
  });

  it('acknowledges and ignores, with a debug line, a payload that is not a JSON object', async () => {
    const { messenger, logger } = newMessenger();
    const box = inbox();
    await messenger.subscribe('CKHandoff_raw', box.handler);
    const raw = admin.topic(messenger.topicName);
    const attributes = { [TOPIC_ATTRIBUTE]: encodeTopic('CKHandoff_raw') };
    for (const payload of ['not json {', '[1,2]', '"text"', 'null']) {
      await raw.publishMessage({ data: Buffer.from(payload), attributes });
    }
    await messenger.publish('CKHandoff_raw', { n: 3 });
    await until(() => box.messages.length > 0, 5_000, 'the good message');
    await until(
      () => logger.lines.filter((line) => line.level === 'debug').length >= 4,
      5_000,
      'four debug lines',
    );
    expect(box.messages).toEqual([{ n: 3 }]);
    expect(logger.lines.filter((line) => line.level === 'debug')).toEqual(
      Array.from({ length: 4 }, () => ({
        level: 'debug',
        message: expect.stringMatching(
          / on \S+ for CKHandoff_raw is not a JSON object; acknowledged and ignored$/,
        ),
      })),
    );
  });
});
