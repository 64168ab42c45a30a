import { afterEach, describe, expect, it } from 'vitest';
import { Broker } from '../src/broker.js';
import { sleep } from './inbox.js';

const TOPIC = 'projects/p/topics/things';
const SUBSCRIPTION = 'projects/p/subscriptions/idle';

describe('Broker', () => {
  let broker: Broker | undefined;
  afterEach(() => broker?.close());

  it('deletes a subscription left idle past its expiration TTL', async () => {
    broker = new Broker();
    broker.createTopic({ name: TOPIC });
    broker.createSubscription({
      name: SUBSCRIPTION,
      topic: TOPIC,
      expirationPolicy: { ttl: { seconds: '0', nanos: 150e6 } },
    });
    expect(broker.listSubscriptions('projects/p')).toHaveLength(1);
    await sleep(300);
    expect(broker.listSubscriptions('projects/p')).toHaveLength(0);
  });

  it('fills Google defaults and keeps subscriptions of a deleted topic', () => {
    broker = new Broker();
    broker.createTopic({ name: TOPIC });
    const created = broker.createSubscription({ name: SUBSCRIPTION, topic: TOPIC });
    expect(created).toMatchObject({
      ackDeadlineSeconds: 10,
      messageRetentionDuration: { seconds: String(7 * 24 * 3600) },
      expirationPolicy: { ttl: { seconds: String(31 * 24 * 3600) } },
    });
    broker.deleteTopic(TOPIC);
    expect(broker.subscription(SUBSCRIPTION).resource.topic).toBe('_deleted-topic_');
  });

  it('validates names and ack deadlines', () => {
    broker = new Broker();
    expect(() => broker?.createTopic({ name: 'projects/p/topics/ab' })).toThrow(
      /Invalid topic name/,
    );
    broker.createTopic({ name: TOPIC });
    const tooLong = { name: SUBSCRIPTION, topic: TOPIC, ackDeadlineSeconds: 601 };
    expect(() => broker?.createSubscription(tooLong)).toThrow(/out of bounds/);
  });
});
