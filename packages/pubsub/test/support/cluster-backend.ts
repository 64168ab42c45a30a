import { type ClusterBackend, realTime } from '@datadriver/testkit';
import type { PubSub } from '@google-cloud/pubsub';
import { PubSubMessenger } from '../../src/index.js';
import { emulatorClient, uniqueId } from './clients.js';
import type { SharedStore } from './shared-store.js';

export interface PubSubBackendOptions {
  /** Real seconds per seed second (see ClusterBackend.scale). */
  readonly scale: number;
}

/** Connections warmed before a scenario starts: most scenarios run two servers. */
const PREPARED = 2;

/**
 * Simulated servers on the Pub/Sub emulator at `endpoint`: each server gets its own client
 * and messenger on one shared topic, and the store and presence of `shared`.
 *
 * Each messenger is warmed up (channels open, stubs made) before its server starts, as on a
 * server that has run for a while, and the first ones before the scenario starts: a cold
 * client's first calls take tens of ms, longer than a park at small scales.
 */
export async function pubSubClusterBackend(
  endpoint: string,
  shared: SharedStore,
  options: PubSubBackendOptions,
): Promise<ClusterBackend> {
  const topicName = uniqueId('handoff');
  const clients: PubSub[] = [];
  const messengers: PubSubMessenger[] = [];

  const warmMessenger = async (): Promise<PubSubMessenger> => {
    const client = emulatorClient(endpoint);
    const messenger = new PubSubMessenger({ client, topicName });
    clients.push(client);
    messengers.push(messenger);
    const topic = uniqueId('CKHandoff_warm-up');
    const subscription = await messenger.subscribe(topic, () => undefined);
    await messenger.publish(topic, { warmUp: true });
    await subscription.unsubscribe();
    return messenger;
  };

  const prepared = await Promise.all(Array.from({ length: PREPARED }, warmMessenger));
  return {
    name: `Pub/Sub emulator at ${endpoint}`,
    time: realTime(),
    scale: options.scale,
    connect: async () => {
      const messenger = prepared.shift() ?? (await warmMessenger());
      return {
        ...(await shared.connect()),
        messenger,
      };
    },
    read: (storeKey) => shared.read(storeKey),
    close: async () => {
      await Promise.all(messengers.map((messenger) => messenger.destroy()));
      await Promise.all(clients.map((client) => client.close()));
      await shared.close();
    },
  };
}
