import type { DataDriver, Handoff, Profile } from '@datadriver/core';
import type {
  FaultyMessenger,
  FaultyPresence,
  FaultyStore,
  MemoryHost,
} from '@datadriver/core/testing';
import type { StoryEvent } from '../story-event.js';

export interface PlayerData {
  coins: number;
}

/** One server's own connections to the shared backend, each able to take injected faults. */
export interface ServerPorts {
  readonly store: FaultyStore;
  readonly messenger: FaultyMessenger;
  readonly presence: FaultyPresence;
}

/** A game server of the demo: a host with players, a driver attached to it, its handoff. */
export class DemoServer {
  constructor(
    /** "A", "B": also its jobId, so the core's texts name it the same way. */
    readonly label: string,
    readonly host: MemoryHost,
    readonly driver: DataDriver<PlayerData>,
    readonly ports: ServerPorts,
    /** Absent on a server running as an older build (`handoff: false`). */
    readonly handoff: Handoff | undefined,
    private readonly report: (type: StoryEvent['type']) => void,
  ) {}

  /** A player connects: the driver starts loading their profile. */
  join(playerId: string): void {
    this.host.join(playerId);
  }

  /** A player disconnects: the driver starts the leave save. */
  leave(playerId: string): void {
    this.report('player.left');
    this.host.leave(playerId);
  }

  profile(key: string): Profile<PlayerData> | undefined {
    return this.driver.profile(key);
  }

  /**
   * A webhook's grant reaches this server (its POST /grant): it sends `coins` to `key` and
   * resolves once they are durable in the profile's inbox.
   */
  async sendGift(key: string, coins: number, receipt: string): Promise<void> {
    const { outcome } = await this.driver.send(key, { coins }, { id: receipt });
    if (outcome !== 'queued') throw new Error(`the gift to ${key} was not queued: ${outcome}`);
    this.report('gift.sent');
  }

  /** The server stops dead: no write, beat, message or reply leaves it again. */
  crash(): void {
    const forever = { kind: 'stall', times: Number.POSITIVE_INFINITY } as const;
    this.ports.store.faults.inject(forever);
    this.ports.presence.faults.inject(forever);
    this.ports.messenger.faults.inject(forever);
    this.report('server.crashed');
  }
}
