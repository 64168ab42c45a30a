/**
 * The seed's wire format on Pub/Sub, read with a raw subscription of the client library on the
 * messenger's topic (no filter), past the adapter: each message's data is the exact bytes of
 * `{ T: "Q", D, K, R, L? }` or `{ T: "R", D, K }`, and its `datadriver_topic` attribute names
 * the server it is addressed to. On the local emulator and on Google's where gcloud has it.
 */

import { sendWireSamples, WIRE_SAMPLES } from '@datadriver/testkit';
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
  });
}

wireCheck('the local Pub/Sub emulator', () => inject('pubsubEmulatorHost'));
onGoogleEmulator((endpoint) => wireCheck("Google's Pub/Sub emulator", () => endpoint));
