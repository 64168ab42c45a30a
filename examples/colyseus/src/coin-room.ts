/**
 * The game: a room where each `earn` message adds coins to the player's profile. The profile is
 * loaded before onJoin goes on; everything about the lock is DataDriver's.
 */
import { type Client, Room } from '@colyseus/core';
import { loadWaits, profiles } from './profiles.js';

/** How long a dropped client's seat is held for a reconnection. */
const RECONNECT_SECONDS = 20;

export class CoinRoom extends Room {
  override onCreate(): void {
    this.onMessage('earn', (client, coins: unknown) => {
      const profile = profiles.profileOf(this, client);
      if (!profile || !Number.isSafeInteger(coins) || (coins as number) <= 0) return;
      profile.data.coins += coins as number;
      client.send('coins', profile.data.coins);
    });
  }

  // A demo trusts the name the player gives; a real game verifies a token here.
  override onAuth(_client: Client, options: { user?: unknown }): unknown {
    return typeof options.user === 'string' && options.user !== '' && { userId: options.user };
  }

  override async onJoin(client: Client): Promise<void> {
    const profile = await profiles.join(this, client);
    const waitedMs = loadWaits.get(profile.key);
    client.send('loaded', { coins: profile.data.coins, roomId: this.roomId, waitedMs });
  }

  override async onLeave(client: Client, consented: boolean): Promise<void> {
    if (consented) return;
    // A kicked player (they joined another process) has no profile here any more, and the host
    // cancels their seat: nothing to hold.
    if (!profiles.profileOf(this, client)) return;
    // A network blip: hold the seat; the player's profile stays loaded meanwhile.
    const held = this.allowReconnection(client, RECONNECT_SECONDS);
    // The seat is held from here (allowReconnection reserves it at once). The runner waits for
    // this line before it reconnects: a reconnection that came before it would find no seat
    // yet, and Colyseus would print "reconnection token invalid or expired" for a player who
    // then reconnects fine on the client's retry.
    const { userId } = client.auth as { userId: string };
    console.log(`${userId} dropped: seat held ${RECONNECT_SECONDS} s for a reconnection`);
    await held.catch(() => undefined);
  }
}
