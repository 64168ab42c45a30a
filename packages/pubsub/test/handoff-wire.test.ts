/**
 * The seed's wire format on Pub/Sub, read with a raw subscription of the client library on the
 * messenger's topic (no filter), past the adapter: each message's data is the exact bytes of
 * `{ T: "Q", D, K, R, L? }` or `{ T: "R", D, K }`, and its `datadriver_topic` attribute names
 * the server it is addressed to. And the other way: a request published raw with the client
 * library, as another implementation may write it, is acted on. On the local emulator and on
 * Google's where gcloud has it.
 */

import {
  FOREIGN_REQUEST_BYTES,
  REPLY_BYTES,
  sendWireSamples,
  WIRE_SAMPLES,
  wireHolder,
} from '@datadriver/testkit/cluster';
import { type Message, PubSub } from '@google-cloud/pubsub';
import { describe, expect, inject, it } from 'vitest';
import { PubSubMessenger } from '../src/index.js';
import { PROJECT_ID, uniqueId } from './support/clients.js';
import { onGoogleEmulator } from './support/google-emulator.js';
import { until } from './support/until.js';

function wireCheck(name: string, endpoint: () => string) {
  describe(`the handoff wire format on ${name}`, () => {
    it('puts the exact bytes of a request (with and without a token) and a reply on the topic, addressed by attribute', async () => {
      const client = new PubSub({ projectId: PROJECT_ID, apiEndpoint: endpoint() });
      const topicName = uniqueId('wire');
      const [topic] = await client.createTopic(topicName);
      const [raw] = await topic.createSubscription(uniqueId('wire-raw'));
      const received: Array<{ topic: string; bytes: string; attributes: object }> = [];
      raw.on('message', (message: Message) => {
        message.ack();
        received.push({
          topic: message.attributes.datadriver_topic ?? '?',
          bytes: message.data.toString('utf8'),
          attributes: message.attributes,
        });
      });
      const messenger = new PubSubMessenger({ client, topicName });
      try {
        await sendWireSamples(messenger);
        await until(() => received.length >= WIRE_SAMPLES.length, 10_000, 'the three messages');
        const byBytes = (a: { bytes: string }, b: { bytes: string }) =>
          a.bytes.localeCompare(b.bytes);
        expect(received.map(({ topic, bytes }) => ({ topic, bytes })).sort(byBytes)).toEqual(
          [...WIRE_SAMPLES].sort(byBytes),
        );
        for (const message of received) {
          expect(message.attributes).toEqual({ datadriver_topic: message.topic });
        }
      } finally {
        await raw.close();
        await raw.delete();
        await messenger.destroy();
        await client.close();
      }
    });

    it('acts on a request published raw in another field order with an unknown field, and replies with the exact bytes', async () => {
      const client = new PubSub({ projectId: PROJECT_ID, apiEndpoint: endpoint() });
      const topicName = uniqueId('wire-in');
      const [topic] = await client.createTopic(topicName);
      const [raw] = await topic.createSubscription(uniqueId('wire-in-raw'));
      const replies: Array<{ bytes: string; attributes: object }> = [];
      raw.on('message', (message: Message) => {
        message.ack();
        if (message.attributes.datadriver_topic !== 'CKHandoff_server-b') return;
        replies.push({ bytes: message.data.toString('utf8'), attributes: message.attributes });
      });
      const messenger = new PubSubMessenger({ client, topicName });
      const a = await wireHolder(messenger);
      try {
        await topic.publishMessage({
          data: Buffer.from(FOREIGN_REQUEST_BYTES),
          attributes: { datadriver_topic: 'CKHandoff_server-a' },
        });
        await a.released();
        await until(() => replies.length > 0, 10_000, 'the reply');
        expect(a.events.find((e) => e.type === 'handoff.request.received')).toMatchObject({
          key: 'user-42',
          requester: 'server-b',
          action: 'kick',
        });
        expect(a.kicks()).toEqual(['You joined another server.']);
        expect(replies).toEqual([
          { bytes: REPLY_BYTES, attributes: { datadriver_topic: 'CKHandoff_server-b' } },
        ]);
      } finally {
        await a.close();
        await raw.close();
        await raw.delete();
        await messenger.destroy();
        await client.close();
      }
    });
  });
}

wireCheck('the local Pub/Sub emulator', () => inject('pubsubEmulatorHost'));
onGoogleEmulator((endpoint) => wireCheck("Google's Pub/Sub emulator", () => endpoint));
