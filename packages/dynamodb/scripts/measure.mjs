#!/usr/bin/env node
/**
 * Latency of DataDriver on DynamoDB Local, from the built dist of @datadriver/core and this
 * package: the median and p99 of a load, a save and a release of a real DataDriver over
 * DynamoStore, without and with versions, of a load again on the same server (from the snapshot
 * the release left), and the hand-over time of a live session between two servers.
 *
 *   pnpm turbo run build --filter=@datadriver/dynamodb...   # once
 *   pnpm --filter @datadriver/dynamodb measure
 *
 * DynamoDB Local is started here (Java 17) unless DDB_ENDPOINT names a running DynamoDB.
 * MEASURE_PROFILES (default 300) and MEASURE_HANDOVERS (default 100) set the sample sizes.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

// The SDK pin is deliberate (later releases need Node 22); its notice is not a result.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { DeleteTableCommand, DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
const core = {
  ...(await import('@datadriver/core')),
  ...(await import('@datadriver/core/ports')),
  ...(await import('@datadriver/core/testing')),
};
const { startDynamoLocal } = await importBuilt('@datadriver/backends');
const { DynamoStore, ensureTable } = await importBuilt('../dist/index.js');

const PROFILES = Number(process.env.MEASURE_PROFILES ?? 300);
const HANDOVERS = Number(process.env.MEASURE_HANDOVERS ?? 100);
const WARM_UP = 30;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const backend = await startDynamoLocal();
const client = makeClient(backend.endpoint);
const sent = countCalls(client);
const tableName = `dd-measure-${process.pid}-${Date.now().toString(36)}`;
// keep: 1, so that a profile's release (its second version) also trims its first, as every
// versioned save does once a profile has `keep` versions.
const versions = { keep: 1 };
await ensureTable({ client, tableName, versions });
const clients = [client];

try {
  console.log(`DataDriver on DynamoDB Local: ${describeBackend()}`);
  console.log(`Node ${process.version}, ${cpus().length} CPUs, table ${tableName}`);
  const { plain, versioned } = await measureLifecycles({ plain: {}, versioned: { versions } });
  console.log(
    `\nOne profile at a time, ${PROFILES} profiles after ${WARM_UP} warm-up rounds. A load is` +
      ' cold (a new key: a read, then a conditional write), a save and a release one conditional' +
      ' write each; "load again" loads the key once more on the same driver after its release,' +
      ' from the snapshot the release left (one conditional write, no read), then releases it:',
  );
  printTable([
    ['load', plain.load],
    ['save', plain.save],
    ['release', plain.release],
    ['load again', plain.again],
  ]);
  console.log(
    `\nThe same with versions { keep: ${versions.keep} } (interleaved with the above, profile by` +
      ' profile, so both see the same JVM and machine): a save and a release that changed the' +
      ' data write the record and its version in one transaction; the release also trims the' +
      " save's version, past the retention:",
  );
  printTable([
    ['load', versioned.load],
    ['save', versioned.save],
    ['release', versioned.release],
    ['load again', versioned.again],
  ]);
  const handovers = await measureHandovers();
  console.log(
    `\nHand-over of a live session, ${HANDOVERS} players: two in-process servers, each a DataDriver` +
      ' with its own Handoff and DynamoDB client, sharing an in-memory messenger and presence' +
      " on real timers (default timings). From the join on B to the profile loaded on B: B's" +
      " failed load, the request, A's kick and release save, the reply, B's load.",
  );
  printTable([['hand-over', { samples: handovers }]]);
} finally {
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  await client.send(new DeleteTableCommand({ TableName: `${tableName}-versions` }));
  for (const each of clients) each.destroy();
  await backend.stop();
}

/**
 * Load, save, release and load again, each timed alone, one profile after another, on a driver
 * per set of store options, taking turns; a save and a release each change the data, as a
 * player's progress does. The load again is a player back on the server they just left.
 */
async function measureLifecycles(variants) {
  const runs = Object.entries(variants).map(([name, options]) => ({
    name,
    driver: new core.DataDriver({
      name: `Measure-${name}`,
      defaults: { coins: 0 },
      store: new DynamoStore({ client, tableName, ...options }),
      logger: quiet,
      handoff: false,
    }),
    times: { load: [], save: [], release: [], again: [] },
    calls: { load: new Map(), save: new Map(), release: new Map(), again: new Map() },
  }));
  for (let index = 0; index < WARM_UP + PROFILES; index++) {
    for (const { driver, times, calls } of runs) {
      const timed = async (operation, act) => {
        const before = new Map(sent);
        const started = performance.now();
        const result = await act();
        if (index < WARM_UP) return result;
        times[operation].push(performance.now() - started);
        for (const [command, count] of sent) {
          const made = count - (before.get(command) ?? 0);
          if (made > 0) calls[operation].set(command, (calls[operation].get(command) ?? 0) + made);
        }
        return result;
      };
      const key = `player-${index}`;
      const profile = await timed('load', () => driver.load(key));
      profile.data.coins += 1;
      await timed('save', () => profile.save());
      profile.data.coins += 1;
      await timed('release', () => profile.release());
      const back = await timed('again', () => driver.load(key));
      await back.release();
    }
  }
  for (const { driver } of runs) await driver.close();
  return Object.fromEntries(
    runs.map(({ name, times, calls }) => [
      name,
      Object.fromEntries(
        Object.entries(times).map(([operation, samples]) => [
          operation,
          { samples, calls: calls[operation] },
        ]),
      ),
    ]),
  );
}

/**
 * Counts the commands sent on `client` by name, once per send (the SDK's own retries of a
 * send are not counted again): what each operation costs in DynamoDB calls.
 */
function countCalls(target) {
  const counts = new Map();
  target.middlewareStack.add(
    (next, context) => (args) => {
      counts.set(context.commandName, (counts.get(context.commandName) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'measureCallCount' },
  );
  return counts;
}

/** A player on A joins B while still connected to A; the time until B has the profile. */
async function measureHandovers() {
  const messenger = new core.MemoryMessenger();
  const presence = new core.MemoryPresence(new core.SystemScheduler());
  const a = server('measure-A', messenger, presence);
  const b = server('measure-B', messenger, presence);
  const waits = [];
  try {
    for (let index = 0; index < WARM_UP + HANDOVERS; index++) {
      const key = `handover-${index}`;
      await loaded(a, key, () => a.host.join(key));
      const started = performance.now();
      await loaded(b, key, () => b.host.join(key));
      if (index >= WARM_UP) waits.push(performance.now() - started);
      b.host.leave(key);
    }
    // Every hand-over must have been a live session's: A kicked its player each time.
    const kicked = a.host.kicks.filter((kick) => kick.message === 'You joined another server.');
    if (kicked.length !== WARM_UP + HANDOVERS) {
      throw new Error(`expected ${WARM_UP + HANDOVERS} kicks on A, saw ${kicked.length}`);
    }
  } finally {
    for (const each of [a, b]) {
      await each.driver.close();
      await each.handoff.destroy();
    }
  }
  return waits;
}

function server(jobId, messenger, presence) {
  const serverClient = makeClient(backend.endpoint);
  clients.push(serverClient);
  const handoff = new core.Handoff({ jobId, messenger, presence, logger: quiet });
  const driver = new core.DataDriver({
    name: 'Measure',
    defaults: { coins: 0 },
    store: new DynamoStore({ client: serverClient, tableName }),
    messenger,
    presence,
    logger: quiet,
    jobId,
    handoff,
  });
  const host = new core.MemoryHost(jobId);
  driver.attach(host);
  return { driver, handoff, host };
}

/** Resolves when `server` has loaded `key` after `act`; rejects if that load fails. */
function loaded(server, key, act) {
  return new Promise((resolve, reject) => {
    const stop = server.driver.on((event) => {
      if (event.key !== key) return;
      if (event.type !== 'load.loaded' && event.type !== 'load.failed') return;
      stop();
      if (event.type === 'load.loaded') resolve();
      else reject(event.error);
    });
    act();
  });
}

function makeClient(endpoint) {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
  });
}

/** Rows of an operation's name and its samples (and DynamoDB calls, where counted). */
function printTable(rows) {
  console.log(
    `${'operation'.padEnd(10)} ${'n'.padStart(5)} ${'median'.padStart(10)} ${'p99'.padStart(10)}   calls per operation`,
  );
  for (const [name, { samples, calls }] of rows) {
    const cells = [percentile(samples, 0.5), percentile(samples, 0.99)].map((ms) =>
      `${ms.toFixed(1)} ms`.padStart(10),
    );
    const perOperation = [...(calls ?? [])]
      .map(
        ([command, count]) =>
          `${command.replace(/Command$/, '')} ${+(count / samples.length).toFixed(2)}`,
      )
      .join(', ');
    console.log(
      `${name.padEnd(10)} ${String(samples.length).padStart(5)} ${cells.join(' ')}${perOperation && `   ${perOperation}`}`,
    );
  }
}

/** Nearest-rank percentile. */
function percentile(samples, fraction) {
  const sorted = [...samples].sort((x, y) => x - y);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)];
}

function describeBackend() {
  return backend.external
    ? `${backend.endpoint} (DDB_ENDPOINT)`
    : `${backend.endpoint} (DynamoDB Local 3.3.1, started by this script, in memory)`;
}

async function importBuilt(specifier) {
  try {
    return await import(specifier);
  } catch (error) {
    console.error(
      `Cannot load ${specifier}: build first with \`pnpm turbo run build --filter=@datadriver/dynamodb...\`.`,
    );
    throw error;
  }
}
