/**
 * Whether a server's first message after it subscribed arrives later than its next ones (a
 * stream the client opens late would hold it back): one warm client sends, and each round a
 * new warm client subscribes and is sent three messages at once after, one at a time.
 *
 *   pnpm --filter @datadriver/pubsub measure:first-delivery     (builds what it needs first)
 *   ROUNDS=30 node scripts/measure-first-delivery.mjs
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startPubSub } from '@datadriver/backends';
import { PubSub } from '@google-cloud/pubsub';
import { PubSubMessenger } from '../dist/index.js';

process.env.METADATA_SERVER_DETECTION ??= 'none';
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const emulator = await startPubSub();
const topicName = `first-delivery-${randomBytes(4).toString('hex')}`;

/** A client and its messenger, warmed as a server that has run a while (a subscription made, a message sent). */
async function warmServer() {
  const client = new PubSub({ projectId: 'datadriver-test', apiEndpoint: emulator.endpoint });
  const messenger = new PubSubMessenger({ client, topicName });
  const warmUp = `CKHandoff_warm-up-${randomBytes(3).toString('hex')}`;
  const subscription = await messenger.subscribe(warmUp, () => undefined);
  await messenger.publish(warmUp, { warmUp: true });
  await subscription.unsubscribe();
  return { client, messenger };
}

const fmt = (values) => values.map((value) => value.toFixed(1)).join(' / ');
const sender = await warmServer();
const first = [];
const later = [];
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    const receiver = await warmServer();
    const topic = `CKHandoff_round-${round}`;
    let arrived;
    const subscribing = performance.now();
    await receiver.messenger.subscribe(topic, () => arrived?.(performance.now()));
    const subscribeMs = performance.now() - subscribing;
    const flights = [];
    for (let n = 0; n < 3; n += 1) {
      const arrival = new Promise((resolve) => {
        arrived = resolve;
      });
      const sent = performance.now();
      await sender.messenger.publish(topic, { n });
      flights.push((await arrival) - sent);
    }
    first.push(flights[0]);
    later.push(...flights.slice(1));
    console.log(`subscribe ${subscribeMs.toFixed(1)} ms; flights ${fmt(flights)} ms`);
    await receiver.messenger.destroy();
    await receiver.client.close();
  }
} finally {
  await sender.messenger.destroy();
  await sender.client.close();
  await emulator.stop();
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const max = (values) => Math.max(...values);
console.log(
  `first message after subscribe: median ${median(first).toFixed(1)} ms, max ${max(first).toFixed(1)} ms; later ones: median ${median(later).toFixed(1)} ms, max ${max(later).toFixed(1)} ms (${ROUNDS} rounds)`,
);
