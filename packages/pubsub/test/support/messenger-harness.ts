import { startTcpProxy } from '@datadriver/backends';
import type { MessengerHarness } from '@datadriver/testkit';
import { recordingLogger } from '@datadriver/testkit/cluster';
import type { PubSub } from '@google-cloud/pubsub';
import { encodeTopic, PubSubMessenger, TOPIC_ATTRIBUTE } from '../../src/index.js';
import { emulatorClient, failFast, hostAndPort, uniqueId } from './clients.js';

/**
 * The conformance harness: each connection is its own client and messenger, reaching the
 * emulator through a TCP proxy that the outage cuts. Clients fail fast (see clients.ts).
 */
export async function pubSubHarness(endpoint: string): Promise<MessengerHarness> {
  const proxy = await startTcpProxy(hostAndPort(endpoint));
  const topicName = uniqueId('conformance');
  const admin = emulatorClient(endpoint);
  await admin.createTopic(topicName);
  const clients: PubSub[] = [admin];
  const messengers: PubSubMessenger[] = [];
  return {
    connect: async () => {
      const client = emulatorClient(`127.0.0.1:${proxy.port}`);
      const messenger = new PubSubMessenger({
        client,
        topicName,
        ...failFast,
        logger: recordingLogger(),
      });
      clients.push(client);
      messengers.push(messenger);
      return messenger;
    },
    publishRaw: async (topic, payload) => {
      await admin.topic(topicName).publishMessage({
        data: Buffer.from(payload),
        attributes: { [TOPIC_ATTRIBUTE]: encodeTopic(topic) },
      });
    },
    outage: { stop: () => proxy.stop(), start: () => proxy.start() },
    close: async () => {
      await Promise.all(messengers.map((messenger) => messenger.destroy()));
      await Promise.all(clients.map((client) => client.close()));
      await proxy.close();
    },
  };
}
