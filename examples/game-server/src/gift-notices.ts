/**
 * Telling a player of a grant or gift their profile received. `onMessage` applies it to the
 * data, but the effect is durable only once the save that carries it (with the message's id)
 * has landed: the player is told then, or once they are playing, whichever comes last. A grant
 * applied at a join (the player was offline) is told right after `loaded`.
 */
import { type SocketPlayer, send } from './websocket-host.js';

export interface GiftNotice {
  /** The message's id: the receipt's, or the gift's. */
  readonly id: string;
  readonly coins: number;
  /** The profile key of a transfer's sender; absent for a grant from outside. */
  readonly from?: string;
}

export class GiftNotices {
  /** Applied to the data, not yet known saved. */
  private readonly unsaved = new Map<string, GiftNotice[]>();
  /** Saved, waiting for the player to be playing. */
  private readonly untold = new Map<string, GiftNotice[]>();
  private readonly playing = new Map<string, SocketPlayer>();

  /** @param coinsOf the player's coins now, sent with each notice as the new total */
  constructor(private readonly coinsOf: (key: string) => number | undefined) {}

  /** `onMessage` applied `notice` to the data of `key`. */
  applied(key: string, notice: GiftNotice): void {
    push(this.unsaved, key, [notice]);
  }

  /** A save of `key` landed: what was applied before it is durable. */
  saved(key: string): void {
    const notices = take(this.unsaved, key);
    if (notices.length === 0) return;
    push(this.untold, key, notices);
    this.tell(key);
  }

  /** The player of `key` is playing (their `loaded` was sent). */
  play(key: string, player: SocketPlayer): void {
    this.playing.set(key, player);
    this.tell(key);
  }

  /** The player left or was kicked: an effect not yet saved is the next holder's to apply. */
  left(key: string): void {
    this.playing.delete(key);
    this.unsaved.delete(key);
    this.untold.delete(key);
  }

  private tell(key: string): void {
    const player = this.playing.get(key);
    if (!player) return;
    for (const notice of take(this.untold, key)) {
      send(player, { type: 'gift', ...notice, total: this.coinsOf(key) });
    }
  }
}

function push(map: Map<string, GiftNotice[]>, key: string, notices: GiftNotice[]): void {
  map.set(key, [...(map.get(key) ?? []), ...notices]);
}

function take(map: Map<string, GiftNotice[]>, key: string): GiftNotice[] {
  const notices = map.get(key) ?? [];
  map.delete(key);
  return notices;
}
