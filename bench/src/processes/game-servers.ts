/**
 * Real game servers (examples/game-server) as child processes, and players that connect to them
 * over WebSocket: the live hand-over and the crash takeover are measured between these, never
 * inside one process.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { PlayerClient } from '@datadriver/example-game-server/player-client';
import { GameServerProcess } from '@datadriver/example-game-server/process';
import type { Combo } from '../backends.js';
import { MESSAGE_LIMITS_TIMES } from '../config.js';

/**
 * A server (on a sub-millisecond clock, its events shipped off the hand-over) and every event
 * it has reported since it started, for after-the-fact breakdowns, with when each arrived here.
 */
export class WatchedServer {
  readonly events: DataDriverEvent[] = [];
  /** When each of `events` arrived, on this process's `performance.now()` clock. */
  private readonly arrivals: number[] = [];

  private constructor(readonly process: GameServerProcess) {
    process.onEvent((event) => {
      this.events.push(event);
      this.arrivals.push(performance.now());
    });
  }

  static async start(combo: Combo, jobId: string, scale: number): Promise<WatchedServer> {
    return new WatchedServer(
      await GameServerProcess.start({
        jobId,
        scale,
        env: combo.env,
        ...(combo.stack ? { stack: combo.stack } : {}),
        highResClock: true,
        batchEvents: true,
        messageLimitsTimes: MESSAGE_LIMITS_TIMES,
        // The example's onMessage reads the profile's inbox at every load (one more store
        // call): the hand-over and crash figures are measured without it, as before messages;
        // the message figures measure that read on its own (message-load-cost.ts).
        onMessage: false,
        // Locks handed over in the release: three store round trips per hand-over.
        handOverLocks: true,
      }),
    );
  }

  get url(): string {
    return this.process.url;
  }

  /** The first event of `type` for `key`. */
  find(type: DataDriverEvent['type'], key: string): DataDriverEvent | undefined {
    return this.events.find((event) => event.type === type && 'key' in event && event.key === key);
  }

  /** Whether an event of `type` (for any key, or none) was recorded since `forget`. */
  reported(type: DataDriverEvent['type']): boolean {
    return this.events.some((event) => event.type === type);
  }

  /** How many of the events recorded since `forget` arrived between `from` and `to`. */
  arrivedBetween(from: number, to: number): number {
    return this.arrivals.filter((at) => at >= from && at <= to).length;
  }

  /** Drops the events recorded so far (a long run would otherwise keep them all). */
  forget(): void {
    this.events.length = 0;
    this.arrivals.length = 0;
  }
}

export interface Loaded {
  readonly client: PlayerClient;
  readonly coins: number;
  /**
   * From the socket's `open` to the `loaded` message, on this process's clock (ms). B starts
   * its load as it accepts the socket: `open` reaches us one hop after that start and `loaded`
   * one hop after the load, so the two hops cancel out on average. (A sample can come out too
   * short when this process is descheduled across `open`; B's own waitedMs is the check.)
   */
  readonly elapsedMs: number;
  /** The WebSocket handshake before it, connect to `open` (ms). */
  readonly handshakeMs: number;
  /** When `open` came, on this process's `performance.now()` clock: the sample's start. */
  readonly openedAt: number;
  /** The server's own measure, from its first load attempt (ms, whole milliseconds). */
  readonly waitedMs: number | undefined;
}

/** Connects `user` to `server` and resolves once the profile loaded there; throws on a kick. */
export function join(server: WatchedServer, user: string, timeoutMs: number): Promise<Loaded> {
  return joinAt(server.url, user, timeoutMs);
}

/** `join` through any address of a server (a relay in front of it, say). */
export async function joinAt(url: string, user: string, timeoutMs: number): Promise<Loaded> {
  const connecting = performance.now();
  const client = await PlayerClient.connect(url, user);
  const openedAt = performance.now();
  const handshakeMs = openedAt - connecting;
  const message = await client.next('loaded', timeoutMs);
  const elapsedMs = performance.now() - openedAt;
  if (message.type === 'kicked') {
    await client.close();
    throw new Error(`${user} was kicked from ${url}: ${message.message}`);
  }
  return {
    client,
    coins: message.coins,
    elapsedMs,
    handshakeMs,
    openedAt,
    waitedMs: message.waitedMs,
  };
}

/** Joins until a load succeeds, as a client that reconnects after a refused join. */
export async function joinUntilLoaded(target: WatchedServer, user: string, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (let refusedJoins = 0; ; refusedJoins++) {
    try {
      const loaded = await join(target, user, deadline - performance.now());
      return { loaded, loadedAt: performance.now(), refusedJoins };
    } catch (error) {
      if (performance.now() >= deadline) throw error;
    }
  }
}

export async function stopAll(servers: readonly WatchedServer[]): Promise<void> {
  await Promise.allSettled(servers.map((server) => server.process.stop('SIGKILL')));
}
