/**
 * What filter-less delivery costs as a fleet grows. N servers each subscribe to their own
 * CKHandoff_<jobId> through PubSubMessenger on one shared topic; then hand-overs run between
 * random pairs, one at a time: the joiner publishes a request to the holder, whose handler
 * publishes the reply. A hand-over is two messages. Each server counts every message its
 * subscription receives: handed to its handler (addressed to it), or dropped by the messenger
 * because it is addressed to another server (what Google's emulator delivers, ignoring the
 * subscription filter). Runs on the local emulator (filters honoured) and on Google's, where
 * gcloud has it.
 *
 *   pnpm turbo run build --filter=@datadriver/pubsub...
 *   node packages/pubsub/scripts/measure-filterless.mjs          (2, 8 and 32 servers)
 *   FLEETS=2,8 HANDOVERS=20 node packages/pubsub/scripts/measure-filterless.mjs
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startGooglePubSubEmulator, startPubSub } from '@datadriver/backends';
import { PubSub } from '@google-cloud/pubsub';
import { PubSubMessenger } from '../dist/index.js';

process.env.METADATA_SERVER_DETECTION ??= 'none';
const FLEETS = (process.env.FLEETS ?? '2,8,32').split(',').map(Number);
const HANDOVERS = Number(process.env.HANDOVERS ?? 40);
/** After the last hand-over, how long stray deliveries are still counted. */
const SETTLE_MS = 1_500;
const DELIVERY_LIMIT_MS = 10_000;

const percentile = (sorted, fraction) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];

/** One simulated server: its client, messenger and the messages its subscription received. */
async function server(endpoint, topicName, jobId, onRequest) {
  const client = new PubSub({ projectId: 'datadriver-filterless', apiEndpoint: endpoint });
  const counts = { addressed: 0, dropped: 0 };
  // The messenger says each message it drops at debug level: "... is not addressed to ...".
  const logger = {
    debug: (line) => {
      if (line.includes('is not addressed to')) counts.dropped += 1;
    },
    info: () => undefined,
    warn: (line) => console.warn(line),
    error: (line) => console.error(line),
  };
  const messenger = new PubSubMessenger({ client, topicName, logger });
  await messenger.subscribe(`CKHandoff_${jobId}`, (message) => {
    counts.addressed += 1;
    onRequest(messenger, message);
  });
  return { jobId, client, messenger, counts };
}

async function fleet(endpoint, size) {
  const topicName = `filterless-${randomBytes(4).toString('hex')}`;
  const replies = new Map();
  const onMessage = (messenger, message) => {
    if (message.T === 'Q') {
      void messenger.publish(`CKHandoff_${message.R}`, { T: 'R', D: message.D, K: message.K });
    } else if (message.T === 'R') {
      replies.get(message.K)?.();
      replies.delete(message.K);
    }
  };
  const jobIds = Array.from({ length: size }, (_, index) => `server-${index + 1}`);
  const servers = [];
  for (const jobId of jobIds) servers.push(await server(endpoint, topicName, jobId, onMessage));
  // A subscription receives only what is published after it exists: let every stream open.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const waits = [];
  try {
    for (let n = 0; n < HANDOVERS; n += 1) {
      const joiner = servers[n % size];
      const holder = servers[(n + 1 + Math.floor(Math.random() * (size - 1))) % size];
      const key = `user-${n}`;
      const replied = new Promise((resolve, reject) => {
        replies.set(key, resolve);
        setTimeout(() => reject(new Error(`no reply for ${key}`)), DELIVERY_LIMIT_MS).unref();
      });
      const started = performance.now();
      await joiner.messenger.publish(`CKHandoff_${holder.jobId}`, {
        T: 'Q',
        D: 'PlayerData',
        K: key,
        R: joiner.jobId,
        L: `token-${n}`,
      });
      await replied;
      waits.push(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  } finally {
    await Promise.all(servers.map((each) => each.messenger.destroy()));
    await Promise.all(servers.map((each) => each.client.close()));
  }
  const received = servers.map((each) => each.counts.addressed + each.counts.dropped);
  const dropped = servers.reduce((sum, each) => sum + each.counts.dropped, 0);
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    servers: size,
    'received per server per hand-over': (
      received.reduce((a, b) => a + b, 0) /
      size /
      HANDOVERS
    ).toFixed(2),
    'received by the fleet per hand-over': (
      received.reduce((a, b) => a + b, 0) / HANDOVERS
    ).toFixed(1),
    'dropped (not addressed)': `${(
      (100 * dropped) /
        Math.max(
          1,
          received.reduce((a, b) => a + b, 0),
        )
    ).toFixed(0)}%`,
    'request to reply p50': `${percentile(sorted, 0.5).toFixed(1)} ms`,
    'request to reply p99': `${percentile(sorted, 0.99).toFixed(1)} ms`,
  };
}

async function run(label, start) {
  const backend = await start();
  if (!backend) {
    console.log(`\n${label}: not on this machine (no gcloud with the pubsub-emulator component)`);
    return;
  }
  try {
    const rows = [];
    for (const size of FLEETS) rows.push(await fleet(backend.endpoint, size));
    console.log(`\n${label}, ${HANDOVERS} hand-overs (two messages each) per fleet:`);
    console.table(rows);
  } finally {
    await backend.stop();
  }
}

await run('local emulator (filters honoured)', () => startPubSub({ env: {} }));
await run("Google's emulator (filters ignored)", () => startGooglePubSubEmulator());
