/**
 * Live hand-over between two real game-server processes: a player still connected on A (with
 * coins earned since A's last save) joins B. Timed from B's first load attempt (the socket's
 * open: B starts its load as it accepts the socket) to the profile loaded on B, and checked to
 * carry A's latest coins. The player then hops back, so A and B take turns.
 */
import { DEFAULT_KICK_MESSAGES } from '@datadriver/core';
import type { Combo } from '../backends.js';
import type { BenchConfig } from '../config.js';
import { join, type Loaded, stopAll, WatchedServer } from '../processes/game-servers.js';
import { StepTimes } from './handover-steps.js';

const LOAD_TIMEOUT_MS = 30_000;
const EVENT_WAIT_MS = 500;

export interface HandoverResult {
  readonly samples: number[];
  /** B's own waitedMs for the same hops (whole ms). */
  readonly waited: number[];
  /** The WebSocket handshake before each sample (ms), not part of it. */
  readonly handshakes: number[];
  /** Median duration of each step, from both servers' events (ms, on whole-ms clocks). */
  readonly phases: Readonly<Record<string, number>>;
  readonly kicks: number;
}

export async function measureHandover(combo: Combo, config: BenchConfig): Promise<HandoverResult> {
  const tag = `${combo.id}-${process.pid}`;
  const servers = await Promise.all(
    ['A', 'B'].map((name) => WatchedServer.start(combo, `bench-${tag}-${name}`, 1)),
  );
  try {
    return await hops(servers as [WatchedServer, WatchedServer], `hop-${tag}`, config);
  } finally {
    await stopAll(servers);
  }
}

async function hops(
  servers: [WatchedServer, WatchedServer],
  user: string,
  config: BenchConfig,
): Promise<HandoverResult> {
  let current: Loaded = await join(servers[0], user, LOAD_TIMEOUT_MS);
  const samples: number[] = [];
  const waited: number[] = [];
  const handshakes: number[] = [];
  const steps = new StepTimes();
  let kicks = 0;
  for (let hop = 0; hop < config.warmUp + config.handovers; hop++) {
    const [holder, target] = hop % 2 === 0 ? servers : [servers[1], servers[0]];
    holder.forget();
    target.forget();
    const coins = await current.client.earn(1); // unsaved on the holder: must travel
    const next = await join(target, user, LOAD_TIMEOUT_MS);
    if (next.coins !== coins) {
      throw new Error(`hand-over lost data: ${next.coins} coins on B, ${coins} on A`);
    }
    const kicked = await current.client.next('kicked', LOAD_TIMEOUT_MS);
    if (kicked.type === 'kicked' && kicked.message === DEFAULT_KICK_MESSAGES.joinedElsewhere)
      kicks++;
    await current.client.close();
    current = next;
    if (hop < config.warmUp) continue;
    samples.push(next.elapsedMs);
    handshakes.push(next.handshakeMs);
    if (next.waitedMs !== undefined) waited.push(next.waitedMs);
    await eventsArrived(target, user);
    steps.add((on, type) => (on === 'holder' ? holder : target).find(type, user)?.time);
  }
  await current.client.close();
  return { samples, waited, handshakes, phases: steps.medians(), kicks };
}

/** The event stream can trail the player's socket: wait (briefly) for B's load.loaded. */
async function eventsArrived(target: WatchedServer, user: string): Promise<void> {
  const deadline = performance.now() + EVENT_WAIT_MS;
  while (!target.find('load.loaded', user) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
