import { Duration, PubSub, type protos, type Topic, v1 } from '@google-cloud/pubsub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PubSubEmulator, startPubSubEmulator } from '../src/index.js';
import { Inbox, sleep, until } from './inbox.js';

type PullResponse = protos.google.pubsub.v1.IPullResponse;
type StreamingPullResponse = protos.google.pubsub.v1.IStreamingPullResponse;

// The client must not probe the GCE metadata server for credentials.
process.env.METADATA_SERVER_DETECTION = 'none';

/**
 * Set to host:port to run these tests against another emulator (e.g. Google's:
 * `gcloud beta emulators pubsub start --host-port=127.0.0.1:8539 --project=test-project`).
 * Google's ignores filters: there the filter tests assert that instead (every message reaches
 * a filtered subscription, and any filter text is accepted), so the difference shows.
 */
const external = process.env.PUBSUB_EXTERNAL_EMULATOR;
const ours = !external;

const PROJECT = 'test-project';
let emulator: PubSubEmulator | undefined;
let pubsub: PubSub;
let counter = 0;
const unique = (stem: string): string => `${stem}-${Date.now().toString(36)}-${++counter}`;

beforeAll(async () => {
  emulator = ours ? await startPubSubEmulator() : undefined;
  pubsub = new PubSub({ projectId: PROJECT, apiEndpoint: external ?? emulator?.endpoint });
});

afterAll(async () => {
  await pubsub.close();
  await emulator?.stop();
});

async function newTopic(): Promise<Topic> {
  const [topic] = await pubsub.createTopic(unique('topic'));
  return topic;
}

/** The generated (GAPIC) client, for RPCs the handwritten one does not expose. */
const subscriberClient = (): v1.SubscriberClient =>
  new v1.SubscriberClient({ ...pubsub.options, port: Number(pubsub.options.port) });

const publish = (topic: Topic, text: string, attributes: Record<string, string> = {}) =>
  topic.publishMessage({ data: Buffer.from(text), attributes });

describe('topics', () => {
  it('creates, finds, lists and deletes a topic', async () => {
    const topic = await newTopic();
    expect(await topic.exists()).toEqual([true]);
    const [topics] = await pubsub.getTopics();
    expect(topics.map((t) => t.name)).toContain(topic.name);
    await expect(pubsub.createTopic(topic.name)).rejects.toMatchObject({ code: 6 });
    await topic.delete();
    expect(await topic.exists()).toEqual([false]);
  });

  it('rejects publishing to a missing topic with NOT_FOUND', async () => {
    const missing = pubsub.topic(unique('missing'));
    await expect(publish(missing, 'lost')).rejects.toMatchObject({ code: 5 });
  });
});

describe('subscriptions', () => {
  it('stores the settings the client sends and applies updates', async () => {
    const topic = await newTopic();
    const [subscription] = await topic.createSubscription(unique('settings'), {
      ackDeadlineSeconds: 10,
      expirationPolicy: { ttl: { seconds: 86_400 } },
      messageRetentionDuration: 3_600,
    });
    const [metadata] = await subscription.getMetadata();
    expect(metadata.topic).toBe(topic.name);
    expect(metadata.ackDeadlineSeconds).toBe(10);
    expect(Number(metadata.expirationPolicy?.ttl?.seconds)).toBe(86_400);
    expect(Number(metadata.messageRetentionDuration?.seconds)).toBe(3_600);
    await subscription.setMetadata({ ackDeadlineSeconds: 20 });
    const [updated] = await subscription.getMetadata();
    expect(updated.ackDeadlineSeconds).toBe(20);
    const [names] = await topic.getSubscriptions();
    expect(names.map((s) => s.name)).toEqual([subscription.name]);
  });

  it('answers ALREADY_EXISTS and NOT_FOUND like the service', async () => {
    const topic = await newTopic();
    const name = unique('dup');
    await topic.createSubscription(name);
    await expect(topic.createSubscription(name)).rejects.toMatchObject({ code: 6 });
    const missing = pubsub.topic(unique('missing'));
    await expect(missing.createSubscription(unique('orphan'))).rejects.toMatchObject({ code: 5 });
  });

  it('deletes a subscription', async () => {
    const topic = await newTopic();
    const [subscription] = await topic.createSubscription(unique('doomed'));
    expect(await subscription.exists()).toEqual([true]);
    await subscription.delete();
    expect(await subscription.exists()).toEqual([false]);
    await expect(subscription.delete()).rejects.toMatchObject({ code: 5 });
  });

  it("rejects a filter it cannot parse with INVALID_ARGUMENT (Google's accepts any)", async () => {
    const topic = await newTopic();
    const bad = topic.createSubscription(unique('bad'), { filter: 'attributes.kind = order' });
    if (ours) await expect(bad).rejects.toMatchObject({ code: 3 });
    else await expect(bad).resolves.toBeDefined();
  });
});

describe('delivery', () => {
  it("delivers only matching messages to a filtered subscription (Google's delivers all)", async () => {
    const topic = await newTopic();
    const filter = 'attributes.kind = "order" AND NOT hasPrefix(attributes.region, "eu-")';
    const [filtered] = await topic.createSubscription(unique('orders'), { filter });
    const [everything] = await topic.createSubscription(unique('all'));
    const onlyOrders = new Inbox(filtered);
    const all = new Inbox(everything);
    await publish(topic, 'us-order', { kind: 'order', region: 'us-east' });
    await publish(topic, 'eu-order', { kind: 'order', region: 'eu-west' });
    await publish(topic, 'refund', { kind: 'refund', region: 'us-east' });
    await publish(topic, 'plain');
    await publish(topic, 'any-order', { kind: 'order' });
    await all.waitFor(5);
    const everyText = ['any-order', 'eu-order', 'plain', 'refund', 'us-order'];
    const expected = ours ? ['any-order', 'us-order'] : everyText;
    await onlyOrders.waitFor(expected.length);
    await sleep(200); // Give a wrongly delivered message time to show up.
    expect(onlyOrders.texts.sort()).toEqual(expected);
    expect(all.texts.sort()).toEqual(everyText);
    await Promise.all([onlyOrders.close(), all.close()]);
  });

  it('fans out to every subscription, but not messages from before it existed', async () => {
    const topic = await newTopic();
    const [early] = await topic.createSubscription(unique('early'));
    await publish(topic, 'first', { n: '1' });
    const [late] = await topic.createSubscription(unique('late'));
    await publish(topic, 'second', { n: '2' });
    const earlyInbox = new Inbox(early);
    const lateInbox = new Inbox(late);
    await earlyInbox.waitFor(2);
    await lateInbox.waitFor(1);
    await sleep(200);
    expect(earlyInbox.texts.sort()).toEqual(['first', 'second']);
    expect(lateInbox.texts).toEqual(['second']);
    expect(lateInbox.messages[0]?.attributes).toEqual({ n: '2' });
    await Promise.all([earlyInbox.close(), lateInbox.close()]);
  });

  it('redelivers a nacked message at once, counting attempts under a dead-letter policy', async () => {
    const topic = await newTopic();
    const deadLetters = await newTopic();
    const [subscription] = await topic.createSubscription(unique('nack'), {
      ackDeadlineSeconds: 10,
      deadLetterPolicy: { deadLetterTopic: deadLetters.name, maxDeliveryAttempts: 5 },
    });
    const inbox = new Inbox(subscription, (message, index) =>
      index === 0 ? message.nack() : message.ack(),
    );
    const id = await publish(topic, 'retry me');
    const started = Date.now();
    const [first, second] = await inbox.waitFor(2, 3_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect([first?.id, second?.id]).toEqual([id, id]);
    expect([first?.deliveryAttempt, second?.deliveryAttempt]).toEqual([1, 2]);
    await inbox.close();
  });

  it('reports delivery attempt 0 without a dead-letter policy, as Google does', async () => {
    const topic = await newTopic();
    const [subscription] = await topic.createSubscription(unique('plain'));
    const inbox = new Inbox(subscription);
    await publish(topic, 'once');
    const [message] = await inbox.waitFor(1);
    expect(message?.deliveryAttempt).toBe(0);
    await inbox.close();
  });

  it('honours lease changes and acks sent on the StreamingPull stream', async () => {
    const topic = await newTopic();
    const [subscription] = await topic.createSubscription(unique('stream'));
    const client = subscriberClient();
    const stream = client.streamingPull();
    stream.on('error', () => {}); // The cancel at the end surfaces as an error.
    const arrivals: number[] = [];
    stream.on('data', (response: StreamingPullResponse) => {
      for (const received of response.receivedMessages ?? []) {
        const ackId = received.ackId ?? '';
        arrivals.push(Date.now());
        // Both leases are cut to 1 s: the first lapses, the second is acked in time.
        stream.write({ modifyDeadlineAckIds: [ackId], modifyDeadlineSeconds: [1] });
        if (arrivals.length > 1) stream.write({ ackIds: [ackId] });
      }
    });
    stream.write({ subscription: subscription.name, streamAckDeadlineSeconds: 10 });
    await publish(topic, 'lapse');
    await until(
      () => arrivals.length >= 2,
      4_000,
      () => `${arrivals.length} arrivals`,
    );
    await sleep(1_300); // Past the 1 s lease of the redelivery, had the ack been lost.
    expect(arrivals).toHaveLength(2);
    expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(900);
    stream.cancel();
    await client.close();
  });

  it('serves unary Pull, ModifyAckDeadline and Acknowledge', async () => {
    const topic = await newTopic();
    const [subscription] = await topic.createSubscription(unique('pull'));
    const client = subscriberClient();
    const request = { subscription: subscription.name, maxMessages: 10 };
    await publish(topic, 'pulled', { via: 'pull' });
    const [first] = await client.pull(request);
    const ackIdOf = (response: PullResponse): string => response.receivedMessages?.[0]?.ackId ?? '';
    expect(first.receivedMessages?.map((r) => r.message?.data?.toString())).toEqual(['pulled']);
    // A lease cut to 1 s lapses; the blocking Pull returns the message once it does.
    await client.modifyAckDeadline({ ...request, ackIds: [ackIdOf(first)], ackDeadlineSeconds: 1 });
    const shortened = Date.now();
    const [lapsed] = await client.pull(request);
    expect(Date.now() - shortened).toBeGreaterThanOrEqual(900);
    expect(lapsed.receivedMessages?.map((r) => r.message?.attributes)).toEqual([{ via: 'pull' }]);
    // A nack (deadline 0) makes it available again at once.
    await client.modifyAckDeadline({
      ...request,
      ackIds: [ackIdOf(lapsed)],
      ackDeadlineSeconds: 0,
    });
    const [nacked] = await client.pull({ ...request, returnImmediately: true });
    expect(nacked.receivedMessages).toHaveLength(1);
    // An ack beats a lease about to lapse.
    const ackIds = [ackIdOf(nacked)];
    await client.modifyAckDeadline({ ...request, ackIds, ackDeadlineSeconds: 1 });
    await client.acknowledge({ ...request, ackIds });
    await sleep(1_200);
    const [empty] = await client.pull({ ...request, returnImmediately: true });
    expect(empty.receivedMessages ?? []).toEqual([]);
    await expect(client.acknowledge({ ...request, ackIds: ['bogus'] })).rejects.toMatchObject({
      code: 3,
    });
    await client.close();
  });

  it('fails StreamingPull with INVALID_ARGUMENT when the client lease is under 10 s', async () => {
    const topic = await newTopic();
    const [subscription] = await topic.createSubscription(unique('short'));
    // The client sends its lease length as the stream deadline; Google requires 10..600 s.
    subscription.setOptions({ maxAckDeadline: Duration.from({ seconds: 5 }) });
    const inbox = new Inbox(subscription);
    await until(
      () => inbox.errors.length > 0,
      3_000,
      () => 'no error event',
    );
    expect(inbox.errors[0]).toMatchObject({ code: 3 });
    await inbox.close();
  });
});
