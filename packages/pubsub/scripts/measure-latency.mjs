/**
 * Publish-to-receive latency through PubSubMessenger, on the local emulator and, when gcloud
 * has it, on Google's emulator. One message at a time (each waits for the previous one's
 * delivery), after a warm-up, so it measures latency, not throughput.
 *
 *   pnpm --filter @datadriver/pubsub measure     (builds what it needs first)
 *   SAMPLES=1000 node scripts/measure-latency.mjs
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startGooglePubSubEmulator, startPubSub } from '@datadriver/backends';
import { PubSub } from '@google-cloud/pubsub';
import { PubSubMessenger } from '../dist/index.js';

process.env.METADATA_SERVER_DETECTION ??= 'none';
const SAMPLES = Number(process.env.SAMPLES ?? 500);
const WARM_UP = 20;
const DELIVERY_LIMIT_MS = 5_000;

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (value) => `${value.toFixed(2)} ms`;
  return {
    p50: ms(percentile(sorted, 0.5)),
    p99: ms(percentile(sorted, 0.99)),
    min: ms(sorted[0]),
    max: ms(sorted.at(-1)),
  };
}

/** Sends one message at a time from one client to another, timing each leg. */
async function measure(endpoint) {
  const topicName = `latency-${randomBytes(4).toString('hex')}`;
  const clients = [0, 1].map(
    () => new PubSub({ projectId: 'datadriver-latency', apiEndpoint: endpoint }),
  );
  const [sender, receiver] = clients.map((client) => new PubSubMessenger({ client, topicName }));
  const waiting = new Map();
  const topic = 'CKHandoff_latency';
  await receiver.subscribe(topic, (message) => {
    waiting.get(message.n)?.(performance.now());
    waiting.delete(message.n);
  });
  const delivered = [];
  const accepted = [];
  try {
    for (let n = 0; n < WARM_UP + SAMPLES; n += 1) {
      const arrival = new Promise((resolve, reject) => {
        waiting.set(n, resolve);
        setTimeout(
          () => reject(new Error(`message ${n} not delivered in ${DELIVERY_LIMIT_MS} ms`)),
          DELIVERY_LIMIT_MS,
        ).unref();
      });
      const sent = performance.now();
      await sender.publish(topic, { T: 'Q', D: 'PlayerData', K: `user-${n}`, R: 'server-b', n });
      const publishedAt = performance.now();
      const arrivedAt = await arrival;
      if (n >= WARM_UP) {
        delivered.push(arrivedAt - sent);
        accepted.push(publishedAt - sent);
      }
    }
  } finally {
    await Promise.all([sender.destroy(), receiver.destroy()]);
    await Promise.all(clients.map((client) => client.close()));
  }
  return { delivered: summary(delivered), accepted: summary(accepted) };
}

async function run(name, start) {
  const backend = await start();
  if (!backend) {
    console.log(
      `${name}: not on this machine (gcloud or its pubsub-emulator component is missing)`,
    );
    return;
  }
  try {
    const { delivered, accepted } = await measure(backend.endpoint);
    console.log(
      `${name} (${backend.endpoint}), ${SAMPLES} messages one at a time after ${WARM_UP} to warm up:`,
    );
    console.log(
      `  publish to receive: median ${delivered.p50}, p99 ${delivered.p99} (min ${delivered.min}, max ${delivered.max})`,
    );
    console.log(`  publish() resolved: median ${accepted.p50}, p99 ${accepted.p99}`);
  } finally {
    await backend.stop();
  }
}

console.log(
  `PubSubMessenger latency, Node ${process.version}, @google-cloud/pubsub batching off (maxMessages 1)`,
);
await run('local emulator (@datadriver/pubsub-emulator)', () => startPubSub());
await run("Google's emulator (gcloud beta emulators pubsub)", () => startGooglePubSubEmulator());
