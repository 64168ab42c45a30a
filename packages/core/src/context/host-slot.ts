/** The game server a driver is attached to, and the one way a player is kicked. */
import type { KickCause, ProfileEventPayload } from '../events/events.js';
import type { Host, HostPlayer } from '../ports/host.js';

export class HostSlot {
  #host: Host<HostPlayer> | undefined;

  constructor(private readonly emit: (event: ProfileEventPayload) => void) {}

  get attached(): boolean {
    return this.#host !== undefined;
  }

  set(host: Host<HostPlayer> | undefined): void {
    this.#host = host;
  }

  /** Ends `player`'s session with `message`; the host then reports the player removing. */
  kick(key: string, player: HostPlayer, message: string, cause: KickCause): void {
    this.emit({ type: 'profile.kicked', key, player: player.id, message, cause });
    this.#host?.kick(player, message);
  }
}
