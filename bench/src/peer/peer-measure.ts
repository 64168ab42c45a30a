/**
 * The peer measured the way DataDriver is: dynamodb-lock-client's lease lock (fail-open, lease
 * and heartbeat as configured, trustLocalTime off as by default) between a holder process and
 * the bench as the joining server.
 *
 * - Crash takeover: SIGKILL the holder at a random phase of its heartbeat; time until the
 *   joining server holds the lock.
 * - Live hand-over: the player is still connected to the holder, which keeps beating; the
 *   joining server waits with a budget of two leases (at least DataDriver's 15 s lockWait).
 * - Leave-and-join hand-over: the holder releases (the player left) at the moment the joining
 *   server starts to acquire, the best a lease lock can do for a player who moves.
 */
import { ensureTable } from '@datadriver/dynamodb';
import type { DocumentClientLike } from 'dynamodb-lock-client';
import type { BenchConfig } from '../config.js';
import { dynamoClient } from '../measure/conditional-writes.js';
import { allSettled, inBatches, randomDelay } from '../parallel.js';
import { LeaseHolder } from './lease-holder-process.js';
import {
  acquire,
  documentClient,
  type LeaseSettings,
  leaseClient,
  PEER_KEY_ATTRIBUTE,
  PEER_TABLE,
  release,
  watchingPuts,
} from './lease-lock.js';

export interface PeerCrash {
  readonly takeoverMs: number;
  /** From the holder's last heartbeat write to the lock held by the joining server. */
  readonly sinceLastBeatMs: number;
}

export interface PeerResult {
  readonly crashes: PeerCrash[];
  /** Leave-and-join: from the joining server's acquire call to the lock held (ms). */
  readonly handovers: number[];
  /** Live: how long each joining server waited before its acquire failed (ms); never held. */
  readonly liveGaveUpMs: number[];
  readonly liveAcquired: number;
}

/**
 * The peer's hand-overs, timed in milliseconds: run alone, in the bench's latency phase. Its
 * crashes and live waits take seconds of waiting each and run side by side later.
 */
export async function measurePeerHandovers(endpoint: string, config: BenchConfig) {
  const settings = await prepare(endpoint, config);
  const handovers = await leaveAndJoin(settings, config, `handover-${settings.tag}`);
  return {
    handovers,
    /** The crash takeovers and live hand-overs, on the same settings. */
    waits: () => measurePeerWaits(settings, config, handovers),
  };
}

async function measurePeerWaits(
  settings: Settings,
  config: BenchConfig,
  handovers: number[],
): Promise<PeerResult> {
  const [crashes, live] = await allSettled([
    inBatches(config.peerCrashes, config.crashesInParallel, (n) =>
      crash(settings, `crash-${settings.tag}-${n}`),
    ),
    liveHandovers(settings, config, `live-${settings.tag}`),
  ]);
  return {
    crashes,
    handovers,
    liveGaveUpMs: live.filter((trial) => !trial.acquired).map((trial) => trial.waitedMs),
    liveAcquired: live.filter((trial) => trial.acquired).length,
  };
}

async function prepare(endpoint: string, config: BenchConfig): Promise<Settings> {
  const client = dynamoClient(endpoint);
  await ensureTable({ client, tableName: PEER_TABLE, keyAttribute: PEER_KEY_ATTRIBUTE });
  client.destroy();
  const settings: Settings = {
    endpoint,
    leaseMs: config.peerLeaseMs,
    heartbeatMs: config.peerHeartbeatMs,
    tag: `${process.pid}-${Date.now()}`,
    // One client for every joining server, warmed up: its first call's set-up is not a result.
    dynamodb: watchingPuts(documentClient(endpoint), () => {}),
  };
  await release(await acquire(joiner(settings, 0), `warm-${settings.tag}`));
  return settings;
}

interface Settings extends Omit<LeaseSettings, 'retryCount'> {
  readonly dynamodb: DocumentClientLike;
  /** Makes this run's keys unique. */
  readonly tag: string;
}

/** The joining server's lease client; its own heartbeats stop when it releases. */
function joiner(settings: Settings, retryCount: number) {
  return leaseClient({ ...settings, retryCount }, settings.dynamodb);
}

/** What a holder process needs: it makes its own client. */
function holderArgs(settings: Settings, keys: readonly string[]) {
  const { endpoint, leaseMs, heartbeatMs } = settings;
  return { endpoint, leaseMs, heartbeatMs, keys };
}

async function crash(settings: Settings, key: string): Promise<PeerCrash> {
  const holder = await LeaseHolder.start(holderArgs(settings, [key]));
  await randomDelay(settings.heartbeatMs);
  const killedAt = performance.now();
  await holder.kill();
  const lock = await acquire(joiner(settings, 5), key);
  const heldAt = performance.now();
  const sinceLastBeatMs = Date.now() - (holder.lastBeat ?? Number.NaN);
  await release(lock);
  return { takeoverMs: heldAt - killedAt, sinceLastBeatMs };
}

async function leaveAndJoin(
  settings: Settings,
  config: BenchConfig,
  tag: string,
): Promise<number[]> {
  const keys = Array.from({ length: config.peerHandovers }, (_, n) => `${tag}-${n}`);
  const holder = await LeaseHolder.start(holderArgs(settings, keys));
  try {
    return await inBatches(keys.length, config.crashesInParallel, async (n) => {
      const key = keys[n]!;
      const started = performance.now();
      holder.release(key); // the player leaves the holder as they join us
      const lock = await acquire(joiner(settings, 5), key);
      const took = performance.now() - started;
      await release(lock);
      return took;
    });
  } finally {
    await holder.kill();
  }
}

async function liveHandovers(settings: Settings, config: BenchConfig, tag: string) {
  const keys = Array.from({ length: config.peerLiveTrials }, (_, n) => `${tag}-${n}`);
  const holder = await LeaseHolder.start(holderArgs(settings, keys));
  try {
    return await Promise.all(
      keys.map(async (key) => {
        const started = performance.now();
        try {
          await release(await acquire(joiner(settings, 1), key));
          return { acquired: true, waitedMs: performance.now() - started };
        } catch {
          return { acquired: false, waitedMs: performance.now() - started };
        }
      }),
    );
  } finally {
    await holder.kill();
  }
}
