/**
 * `pnpm --filter @datadriver/bench dynamo-calls`: what one DynamoDB call costs, and where, in
 * one process: a bare conditional PutItem and a bare consistent GetItem (what the floor
 * sends) beside the DynamoStore's update given its snapshot (one PutItem) and its read, on the
 * floor's client settings, the four taking turns. Each call is split into the SDK's work before
 * the request is written (middleware, serialization, signing), the HTTP exchange, and the
 * SDK's work after it, by a middleware's timestamps. Run back to back and after an idle gap as
 * long as a hop's (`--gap 13`, ms): on a small VM an idle vCPU wakes slowly.
 *
 *   node dist/dynamo-call-cost.js [--gap 13] [--samples 500]   (DDB_ENDPOINT, or its own)
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoLocal } from '@datadriver/backends';
import type { StoreSnapshot } from '@datadriver/core/ports';
import { DEFAULT_KEY_ATTRIBUTE, DynamoStore, ensureTable } from '@datadriver/dynamodb';
import { DYNAMO_TABLE } from './backends.js';
import { dynamoClient, dynamoWrites, PAYLOAD } from './measure/conditional-writes.js';
import { quietLogger } from './quiet-logger.js';
import { summarize } from './stats.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const WARM_UP = 2_000;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

interface Split {
  /** Send to the request's start, the HTTP exchange, its end to the call's end (ms). */
  before: number[];
  http: number[];
  after: number[];
  total: number[];
}

const gapMs = option('--gap', 13);
const samples = option('--samples', 500);
const external = process.env.DDB_ENDPOINT;
const dynamo = external ? undefined : await startDynamoLocal();
const endpoint = external ?? dynamo!.endpoint;
const client = dynamoClient(endpoint);
interface Exchange {
  readonly start: number;
  readonly end: number;
}
/** The last call's HTTP exchange, as the middleware saw it. */
let lastExchange: Exchange | undefined;
/** The exchange of the call just made, cleared for the next. */
function takeExchange(): Exchange | undefined {
  const exchange = lastExchange;
  lastExchange = undefined;
  return exchange;
}
client.middlewareStack.add(
  (next) => async (args) => {
    const start = performance.now();
    const out = await next(args);
    lastExchange = { start, end: performance.now() };
    return out;
  },
  { step: 'deserialize', priority: 'low', name: 'benchExchangeTimes' },
);
await ensureTable({ client, tableName: DYNAMO_TABLE });
const store = new DynamoStore({ client, tableName: DYNAMO_TABLE, logger: quietLogger });
const bareKey = `bench-calls-${process.pid}-bare`;
const storeKey = `bench-calls-${process.pid}-store`;
let snapshot: StoreSnapshot | undefined;
const record = JSON.parse(PAYLOAD) as Record<string, unknown>;

const calls: Record<string, () => Promise<unknown>> = {
  'bare conditional PutItem': dynamoWrites(client, bareKey),
  'bare GetItem (consistent)': () =>
    client.send(
      new GetItemCommand({
        TableName: DYNAMO_TABLE,
        Key: { [DEFAULT_KEY_ATTRIBUTE]: { S: bareKey } },
        ConsistentRead: true,
      }),
    ),
  'DynamoStore.update given its snapshot': async () => {
    const n = (snapshot?.record.n as number | undefined) ?? 0;
    snapshot = await store.update(
      storeKey,
      () => ({ ...record, n: n + 1 }),
      snapshot ? { expected: snapshot } : {},
    );
  },
  'DynamoStore.get': () => store.get(storeKey),
};

const sleeper = new Int32Array(new SharedArrayBuffer(4));

async function measure(idleMs: number): Promise<Record<string, Split>> {
  const splits: Record<string, Split> = {};
  for (const name of Object.keys(calls))
    splits[name] = { before: [], http: [], after: [], total: [] };
  for (let n = 0; n < samples; n++) {
    for (const [name, call] of Object.entries(calls)) {
      // A futex wait really idles the vCPU, for a fractional timeout (see handover-floors.ts).
      if (idleMs > 0) Atomics.wait(sleeper, 0, 0, idleMs);
      const start = performance.now();
      await call();
      const end = performance.now();
      const split = splits[name]!;
      const exchange = takeExchange();
      if (!exchange) throw new Error(`${name} sent no request`);
      split.before.push(exchange.start - start);
      split.http.push(exchange.end - exchange.start);
      split.after.push(end - exchange.end);
      split.total.push(end - start);
    }
  }
  return splits;
}

try {
  // DynamoDB Local's JVM answers several times slower until its JIT has run.
  for (let n = 0; n < WARM_UP; n++) for (const call of Object.values(calls)) await call();
  for (const idleMs of [0, gapMs]) {
    const splits = await measure(idleMs);
    const when = idleMs > 0 ? `each after ${idleMs} ms idle` : 'back to back';
    process.stdout.write(`\n${samples} calls of each, taking turns, ${when} (medians, ms):\n`);
    process.stdout.write(
      'call                                   | total | SDK before | HTTP | SDK after\n',
    );
    for (const [name, split] of Object.entries(splits)) {
      const [total, before, http, after] = [split.total, split.before, split.http, split.after].map(
        (values) => summarize(values).median.toFixed(3),
      );
      process.stdout.write(`${name.padEnd(38)} | ${total} | ${before} | ${http} | ${after}\n`);
    }
  }
} finally {
  client.destroy();
  await dynamo?.stop();
}
process.exit(0);
