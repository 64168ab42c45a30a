/**
 * The test rooms: `arena` loads the joining player's profile before any game code runs, earns
 * coins on `earn`, and (with `reconnectSeconds` in its create options) holds a dropped client's
 * seat for a reconnection, as the Colyseus docs' pattern does; with `gated`, its onJoin goes on
 * past the loaded profile only once the test opens `world.gate`.
 */
import { type Client, Room } from '@colyseus/core';
import type { ColyseusProfiles } from '../../src/index.js';

export interface PlayerData {
  coins: number;
}

/** What the rooms of this test process share: set by the test before clients join. */
export const world: {
  profiles?: ColyseusProfiles<PlayerData>;
  /** The users whose onJoin went past the profile: game code ran for them. */
  played: string[];
  /** Reconnection waits by session id: the seat is held, then its outcome. */
  reconnections: Map<string, 'held' | 'reconnected' | 'gave up'>;
  /** The users whose profile a gated room's onJoin has, waiting for `gate`. */
  gated: string[];
  /** What a gated room's onJoin awaits after the profile loaded. */
  gate: Promise<void>;
} = { played: [], reconnections: new Map(), gated: [], gate: Promise.resolve() };

function profiles(): ColyseusProfiles<PlayerData> {
  if (!world.profiles) throw new Error('world.profiles is not set');
  return world.profiles;
}

interface ArenaOptions {
  readonly reconnectSeconds?: number;
  readonly gated?: boolean;
}

interface JoinOptions {
  readonly user?: unknown;
  /** What the README's client snippet sends: taken as the user id, as `user` is. */
  readonly token?: unknown;
  /** Returned by onAuth as it is, for tests of what `userIdFromAuth` reads. */
  readonly auth?: unknown;
}

export class Arena extends Room {
  private reconnectSeconds = 0;
  private gated = false;

  override onCreate(options: ArenaOptions): void {
    this.reconnectSeconds = options.reconnectSeconds ?? 0;
    this.gated = options.gated ?? false;
    // As the README's room: tells the client of a gift once it is applied and saved.
    profiles().onMessageApplied(this, (client, message, profile) => {
      client.send('gift', { id: message.id, roomId: this.roomId, coins: profile.data.coins });
    });
    this.onMessage('earn', (client, coins: number) => {
      const profile = profiles().profileOf(this, client);
      if (profile) profile.data.coins += coins;
      client.send('coins', profile ? profile.data.coins : null);
    });
  }

  // Tests only: the user id comes from the join options here; a real server verifies a token.
  override onAuth(_client: Client, options: JoinOptions): unknown {
    if (options.auth !== undefined) return options.auth;
    const user = options.user ?? options.token;
    return user === undefined ? { anonymous: true } : { userId: user };
  }

  override async onJoin(client: Client): Promise<void> {
    const profile = await profiles().join(this, client);
    if (this.gated) {
      world.gated.push(profile.key);
      await world.gate;
    }
    world.played.push(profile.key);
    client.send('loaded', { coins: profile.data.coins, roomId: this.roomId });
  }

  override async onLeave(client: Client, consented: boolean): Promise<void> {
    if (consented || this.reconnectSeconds === 0) return;
    try {
      // allowReconnection holds the seat before it returns; the wait is what it resolves.
      const seat = this.allowReconnection(client, this.reconnectSeconds);
      world.reconnections.set(client.sessionId, 'held');
      await seat;
      world.reconnections.set(client.sessionId, 'reconnected');
    } catch {
      world.reconnections.set(client.sessionId, 'gave up');
    }
  }
}
