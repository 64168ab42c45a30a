/**
 * A chaos server process: a DataDriver on real backends with a `MemoryHost` the runner drives
 * over the IPC channel (a join is a player connecting here). Every loaded profile saves in a
 * loop, one more on its counter each time, and each acknowledged save goes to this process's
 * history file, with the loads, lost locks and takeovers the driver reports.
 *
 *   node dist/chaos-server.js '<ChaosServerConfig as JSON>'
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DataDriver,
  type DataDriverEvent,
  Handoff,
  type Logger,
  type Profile,
} from '@datadriver/core';
import { MemoryHost } from '@datadriver/core/testing';
import { HistoryWriter, type Origin, type ServerLine } from '../history.js';
import { connect } from './connections.js';
import {
  type ChaosServerConfig,
  DRIVER_NAME,
  handoffTimingsOf,
  historyFileOf,
  type ServerCommand,
} from './server-config.js';

interface Counter {
  counter: number;
}

type LineBody = ServerLine extends infer L
  ? L extends ServerLine
    ? Omit<L, keyof Origin>
    : never
  : never;

const config = JSON.parse(process.argv[2] ?? '{}') as ChaosServerConfig;
const origin: Origin = { server: config.jobId, incarnation: config.incarnation };
const history = new HistoryWriter(historyFileOf(config));
const record = (line: LineBody): void => history.write({ ...origin, ...line } as ServerLine);

// Only warnings and errors: the run's story is in the history, not in the log.
const prefix = `[${config.jobId}#${config.incarnation}]`;
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message) => process.stderr.write(`${prefix} warn ${message}\n`),
  error: (message) => process.stderr.write(`${prefix} error ${message}\n`),
};

const ports = await connect(config.store, config.busUrl, logger);
const handoff = Handoff.shared(config.jobId, {
  messenger: ports.messenger,
  presence: ports.presence,
  logger,
  timings: handoffTimingsOf(config),
});
const driver = new DataDriver<Counter>({
  name: DRIVER_NAME,
  defaults: { counter: 0 },
  store: ports.store,
  messenger: ports.messenger,
  presence: ports.presence,
  logger,
  lockWaitSeconds: config.lockWaitSeconds,
  localHandoffSeconds: config.localHandoffSeconds,
  lockTtlSeconds: config.lockTtlSeconds,
  lockSkewSeconds: config.lockSkewSeconds,
  autosaveSeconds: config.autosaveSeconds,
});

/** Why each key's latest load here took it: an adopted profile's counter was never re-read. */
const loadReasons = new Map<string, string>();
/** Loads that found another server's lock: their wait is a hand-over (or a takeover). */
const waitedForLock = new Set<number>();
driver.on((event) => {
  const line = lineOf(event, Date.now());
  if (line) record(line);
});

/** The history line an event makes, if any. */
function lineOf(event: DataDriverEvent, at: number): LineBody | undefined {
  switch (event.type) {
    case 'load.started':
      return { kind: 'load-started', at, key: event.key, loadId: event.loadId };
    case 'load.waiting':
      if (event.reason !== 'locked' || waitedForLock.has(event.loadId)) return undefined;
      waitedForLock.add(event.loadId);
      return { kind: 'load-waited', at, key: event.key, loadId: event.loadId };
    case 'load.loaded':
      waitedForLock.delete(event.loadId);
      loadReasons.set(event.key, event.reason);
      return {
        kind: 'load-ended',
        at,
        key: event.key,
        loadId: event.loadId,
        outcome: 'loaded',
        reason: event.reason,
      };
    case 'load.failed':
      waitedForLock.delete(event.loadId);
      return {
        kind: 'load-ended',
        at,
        key: event.key,
        loadId: event.loadId,
        outcome: 'failed',
        code: event.error.code,
      };
    case 'lock.taken':
      return {
        kind: 'lock-taken',
        at,
        key: event.key,
        reason: event.reason,
        from: event.from.jobId,
      };
    case 'lock.lost':
      return { kind: 'lock-lost', at, key: event.key };
    case 'profile.kicked':
      return { kind: 'kicked', at, key: event.key, cause: event.cause };
    default:
      return undefined;
  }
}

let closing = false;
const looping = new Set<string>();

/** One more on the counter and a save, until the profile is no longer active here. */
async function saveLoop(profile: Profile<Counter>): Promise<void> {
  const key = profile.key;
  looping.add(key);
  try {
    while (profile.active && !closing) {
      const token = profile.lockToken;
      profile.data.counter += 1;
      const value = profile.data.counter;
      const startedAt = Date.now();
      try {
        await profile.save();
        record({ kind: 'save', startedAt, at: Date.now(), key, token, value });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        record({ kind: 'save-failed', at: Date.now(), key, token, value, code: String(code) });
      }
      await sleep(config.saveIntervalMs);
    }
  } finally {
    looping.delete(key);
  }
}

const host = new MemoryHost(config.jobId);
driver.attach(host, {
  onLoad: (profile) => {
    const stored = loadReasons.get(profile.key) !== 'adopted';
    record({
      kind: 'read',
      at: Date.now(),
      key: profile.key,
      token: profile.lockToken,
      value: profile.data.counter,
      stored,
    });
    if (!looping.has(profile.key)) void saveLoop(profile);
  },
});

process.on('message', (command: ServerCommand) => {
  if (closing) return;
  if (command.type === 'join') host.join(command.player);
  else host.leave(command.player);
});
// The runner is gone (it crashed or was killed): nothing would ever stop this process.
process.on('disconnect', () => process.exit(1));

process.once('SIGTERM', async () => {
  closing = true;
  const result = await driver.close({ deadlineSeconds: 10 });
  record({ kind: 'closed', at: Date.now(), unreleased: result.unreleased.length });
  await handoff.destroy();
  await ports.close();
  history.close();
  process.exit(0);
});

// Ready once subscribed, so the first join's release requests reach this server.
const subscribed = new Promise<void>((resolve) => {
  const off = handoff.on((event) => {
    if (event.type !== 'handoff.subscribed') return;
    off();
    resolve();
  });
});
await subscribed;
record({ kind: 'started', at: Date.now() });
process.send?.({ type: 'ready' });
