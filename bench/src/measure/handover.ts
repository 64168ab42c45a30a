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
  /** Warm-up hops by other players (`Hops.warmUp`), and how many players ran them at once. */
  readonly warmUpHops: number;
  readonly warmUpPlayers: number;
  /** Unrecorded hops of the measured player, after those. */
  readonly ownWarmUpHops: number;
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
  /** The measured player's hops. */
  private count = 0;
  private warmUpHops = 0;
  private warmUpPlayers = 0;

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

  /**
   * Warm-up hops by `players` other players at once (their own users, on the same two
   * servers), `hops` in all: each runs the servers' hop code as the recorded hops do, and
   * `players` of them run it `players` times as often, as a server's many players would. The
   * servers' events are dropped as they come (none of these hops is recorded).
   */
  async warmUp(hops: number, players: number, progress: (done: number) => void): Promise<void> {
    let done = 0;
    const walk = async (player: number, share: number) => {
      const user = `${this.user}-warm-${player}`;
      let current = await join(this.servers[0], user, LOAD_TIMEOUT_MS);
      try {
        for (let n = 0; n < share; n++) {
          current = await this.hopTo(current, this.servers[(n + 1) % 2]!, user);
          done++;
          if (done % WARM_UP_FORGET === 0) for (const server of this.servers) server.forget();
          progress(done);
        }
      } finally {
        await current.client.close();
      }
    };
    const shares = Array.from({ length: players }, (_, player) =>
      Math.floor((hops + player) / players),
    );
    await Promise.all(shares.map((share, player) => walk(player, share)));
    this.warmUpHops += done;
    this.warmUpPlayers = players;
    for (const server of this.servers) server.forget();
  }

  /** One hop to the other server; `record: false` for a warm-up hop. */
  async hop(record: boolean): Promise<HopTimes> {
    const [holder, target] =
      this.count % 2 === 0 ? this.servers : [this.servers[1], this.servers[0]];
    this.count++;
    holder.forget();
    target.forget();
    const next = await this.hopTo(this.current, target, this.user);
    const times = { startedAt: next.openedAt, endedAt: next.openedAt + next.elapsedMs };
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
      hops: this.warmUpHops + this.count,
      warmUpHops: this.warmUpHops,
      warmUpPlayers: this.warmUpPlayers,
      ownWarmUpHops: this.count - this.samples.length,
    };
  }

  async close(): Promise<void> {
    await this.current.client.close();
    await stopAll(this.servers);
  }

  /**
   * `user`, connected as `current`, joins `target` with coins earned since the holder's last
   * save, which must travel; resolves with the new connection once the old one is closed,
   * counting the old one's kick when it was the one a hand-over sends.
   */
  private async hopTo(current: Loaded, target: WatchedServer, user: string): Promise<Loaded> {
    const coins = await current.client.earn(1); // unsaved on the holder: must travel
    // The old connection reads its kick after the hop, as a player's device would: on this
    // machine its frames, its close handshake and the server's handling of that close would
    // otherwise run on the two cores that B and the store are using for the hop.
    const old = current.client;
    old.pause();
    let next: Loaded;
    try {
      next = await join(target, user, LOAD_TIMEOUT_MS);
    } finally {
      old.resume();
    }
    if (next.coins !== coins) {
      await next.client.close();
      throw new Error(`hand-over lost data: ${next.coins} coins on B, ${coins} on A`);
    }
    const kicked = await old.next('kicked', LOAD_TIMEOUT_MS);
    await old.close();
    if (kicked.type === 'kicked' && kicked.message === DEFAULT_KICK_MESSAGES.joinedElsewhere)
      this.kicks++;
    return next;
  }
}

/** Warm-up hops between drops of the servers' events (a long warm-up would keep them all). */
const WARM_UP_FORGET = 500;

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
