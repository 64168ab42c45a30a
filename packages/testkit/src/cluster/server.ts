/**
 * One simulated game server of a `Cluster`: its jobId, host, driver, handoff and
 * fault-injecting connections, and the options a scenario gives it (in unscaled seconds).
 */
import type { DataDriver, Handoff, Logger, MessageHandler, Profile } from '@datadriver/core';
import type {
  FaultyMessenger,
  FaultyPresence,
  FaultyStore,
  MemoryHost,
  MemoryPlayer,
} from '@datadriver/core/testing';

export interface PlayerData {
  coins: number;
}

/** Driver options in the rules' seconds (unscaled; the cluster scales them to the backend). */
export interface ServerOptions {
  /** Handoff on (default) or off: a server of an older build, or `handoff: false`. */
  readonly handoff?: boolean;
  /**
   * The driver's `handOverLocks`: a lock handed over in the release (off by default). Its
   * handoff then signs (accepting unsigned messages), as a hand-over needs.
   */
  readonly handOverLocks?: boolean;
  /**
   * Default: core's for the server's presence (`defaultLockWaitSeconds`), scaled. `'unset'`
   * builds the driver without it, so the driver's own default applies, in real seconds: at
   * scale 1 only, a test of the driver's default settings.
   */
  readonly lockWaitSeconds?: number | 'unset';
  readonly localHandoffSeconds?: number;
  readonly lockTtlSeconds?: number;
  readonly lockSkewSeconds?: number;
  readonly autosaveSeconds?: number;
  /**
   * This server's clock reads this many seconds (unscaled) ahead (negative: behind). The store and
   * presence keep the backend's own clock, as real ones do.
   */
  readonly clockSkewSeconds?: number;
  /**
   * Makes the driver's lock tokens and trade ids (the process's unique ids by default): replays
   * read the same.
   */
  readonly createId?: () => string;
  /** The driver's `onMessage`: applies messages sent to the profiles it holds. */
  readonly onMessage?: MessageHandler<PlayerData>;
  /**
   * A fault in the server's own schedule: each normal-priority timer waits `timerDelay(ms)`
   * instead (an extra park, a missed beat), which the bounds must catch.
   */
  readonly timerDelay?: (delayMs: number) => number;
  /** Injects faults into the server's connections before its driver starts. */
  readonly prepare?: (ports: {
    readonly store: FaultyStore;
    readonly messenger: FaultyMessenger;
    readonly presence: FaultyPresence;
  }) => void;
}

export interface LogLine {
  readonly jobId: string;
  readonly level: keyof Logger;
  readonly message: string;
}

export class TestServer {
  private crashed = false;
  /**
   * Told when the server crashes: the cluster halts the timers of its driver and handoff and
   * stops timing what reaches it.
   */
  onCrash: () => void = () => undefined;

  constructor(
    /** The label the scenario uses ("A", "B"). */
    readonly label: string,
    readonly jobId: string,
    readonly host: MemoryHost,
    readonly driver: DataDriver<PlayerData>,
    readonly store: FaultyStore,
    readonly messenger: FaultyMessenger,
    readonly presence: FaultyPresence,
    readonly handoff: Handoff | undefined,
  ) {}

  /** A player connects to this server (its profile starts loading). */
  join(playerId: string): MemoryPlayer {
    return this.host.join(playerId);
  }

  /** A player disconnects (its profile starts its leave save). */
  leave(playerId: string): void {
    this.host.leave(playerId);
  }

  profile(key: string): Profile<PlayerData> | undefined {
    return this.driver.profile(key);
  }

  /**
   * The server stops dead, as a killed process does: no write, beat, message or reply ever
   * leaves it again, and no timer of it fires (a load it had under way never ends).
   */
  crash(): void {
    this.crashed = true;
    this.onCrash();
    const forever = { kind: 'stall', times: Number.POSITIVE_INFINITY } as const;
    this.store.faults.inject(forever);
    this.presence.faults.inject(forever);
    this.messenger.faults.inject(forever);
  }

  /** Shuts the server down (a crashed one only stops its timers). */
  async stop(): Promise<void> {
    if (!this.crashed) await this.driver.close({ deadlineSeconds: 1 });
    await this.handoff?.destroy();
  }
}
