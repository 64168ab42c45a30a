/**
 * Live hand-over between two real game-server processes: a player still connected on A (with
 * coins earned since A's last save) joins B. Timed from B's first load attempt (the socket's
 * open: B starts its load as it accepts the socket) to the profile loaded on B, and checked to
 * carry A's latest coins. The player then hops back, so A and B take turns. One hop at a time,
 * so the floors can be interleaved with them (handover-floors.ts).
 */
import { DEFAULT_KICK_MESSAGES } from '@datadriver/core';
import type { Combo } from '../backends.js';
import { join, type Loaded, stopAll, WatchedServer } from '../processes/game-servers.js';
import { StepTimes } from './handover-steps.js';

const LOAD_TIMEOUT_MS = 30_000;
const EVENT_WAIT_MS = 500;

export interface HandoverResult {
  readonly samples: number[];
  /** B's own waitedMs for the same hops (ms). */
  readonly waited: number[];
  /** The WebSocket handshake before each sample (ms), not part of it. */
  readonly handshakes: number[];
  /** Median duration of each step, from both servers' events (ms, sub-millisecond clocks). */
  readonly phases: Readonly<Record<string, number>>;
  readonly kicks: number;
  /** Recorded hops whose load took the lock the holder's release wrote for it (`handed`). */
  readonly handed: number;
  /** Recorded hops during which an event of the holder, or of B, reached the bench (none should). */
  readonly eventsDuringHop: { readonly holder: number; readonly target: number };
  /** Recorded hops in which a server dropped a message over its budget (none should). */
  readonly limited: number;
  /** Hops in all, warm-up included. */
  readonly hops: number;
}

/** When one hop's sample started and ended, on this process's `performance.now()` clock. */
export interface HopTimes {
  readonly startedAt: number;
  readonly endedAt: number;
}

export class Hops {
  private readonly samples: number[] = [];
  private readonly waited: number[] = [];
  private readonly handshakes: number[] = [];
  private readonly steps = new StepTimes();
  private kicks = 0;
  private handed = 0;
  private limited = 0;
  private readonly eventsDuringHop = { holder: 0, target: 0 };
  private count = 0;

  private constructor(
    private readonly servers: readonly [WatchedServer, WatchedServer],
    private readonly user: string,
    private current: Loaded,
  ) {}

  static async start(combo: Combo): Promise<Hops> {
    const tag = `${combo.id}-${process.pid}`;
    const servers = await Promise.all(
      ['A', 'B'].map((name) => WatchedServer.start(combo, `bench-${tag}-${name}`, 1)),
    );
    try {
      const user = `hop-${tag}`;
      const first = await join(servers[0]!, user, LOAD_TIMEOUT_MS);
      return new Hops(servers as [WatchedServer, WatchedServer], user, first);
    } catch (error) {
      await stopAll(servers);
      throw error;
    }
  }

  /** One hop to the other server; `record: false` for a warm-up hop. */
  async hop(record: boolean): Promise<HopTimes> {
    const [holder, target] =
      this.count % 2 === 0 ? this.servers : [this.servers[1], this.servers[0]];
    this.count++;
    holder.forget();
    target.forget();
    const coins = await this.current.client.earn(1); // unsaved on the holder: must travel
    // The old connection reads its kick after the hop, as a player's device would: on this
    // machine its frames, its close handshake and the server's handling of that close would
    // otherwise run on the two cores that B and the store are using for the hop.
    const old = this.current.client;
    old.pause();
    let next: Loaded;
    try {
      next = await join(target, this.user, LOAD_TIMEOUT_MS);
    } finally {
      old.resume();
    }
    const times = { startedAt: next.openedAt, endedAt: next.openedAt + next.elapsedMs };
    if (next.coins !== coins) {
      throw new Error(`hand-over lost data: ${next.coins} coins on B, ${coins} on A`);
    }
    const kicked = await this.current.client.next('kicked', LOAD_TIMEOUT_MS);
    if (kicked.type === 'kicked' && kicked.message === DEFAULT_KICK_MESSAGES.joinedElsewhere)
      this.kicks++;
    await this.current.client.close();
    this.current = next;
    // The servers ship their events once quiet: wait for them here, between hops.
    await eventsArrived(holder, target, this.user);
    if (!record) return times;
    this.samples.push(next.elapsedMs);
    this.handshakes.push(next.handshakeMs);
    if (next.waitedMs !== undefined) this.waited.push(next.waitedMs);
    const during = (server: WatchedServer) => server.arrivedBetween(times.startedAt, times.endedAt);
    if (holder.reported('handoff.limited') || target.reported('handoff.limited')) this.limited++;
    const loaded = target.find('load.loaded', this.user);
    if (loaded?.type === 'load.loaded' && loaded.reason === 'handed') this.handed++;
    if (during(holder) > 0) this.eventsDuringHop.holder++;
    if (during(target) > 0) this.eventsDuringHop.target++;
    this.steps.add((on, type) => (on === 'holder' ? holder : target).find(type, this.user)?.time);
    return times;
  }

  result(): HandoverResult {
    return {
      samples: this.samples,
      waited: this.waited,
      handshakes: this.handshakes,
      phases: this.steps.medians(),
      kicks: this.kicks,
      handed: this.handed,
      limited: this.limited,
      eventsDuringHop: this.eventsDuringHop,
      hops: this.count,
    };
  }

  async close(): Promise<void> {
    await this.current.client.close();
    await stopAll(this.servers);
  }
}

/** Waits (briefly) for the last events of the hop: the holder's reply, B's load.loaded. */
async function eventsArrived(holder: WatchedServer, target: WatchedServer, user: string) {
  const deadline = performance.now() + EVENT_WAIT_MS;
  const arrived = () =>
    holder.find('handoff.reply.sent', user) !== undefined &&
    target.find('load.loaded', user) !== undefined;
  while (!arrived() && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
