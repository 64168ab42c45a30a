/**
 * The game: a player connects with a user id, their profile loads (or they are kicked), and
 * each `earn` message adds coins to it. Grants (`POST /grant`) and gifts reach the profile as
 * messages, applied once by whichever server holds it. Everything about the lock is DataDriver's.
 */
import type { DataDriver, MessageTarget, ProfileMessage } from '@datadriver/core';
import type { GiftNotices } from './gift-notices.js';
import { grantOf } from './grant-request.js';
import { type SocketPlayer, send } from './websocket-host.js';

export interface PlayerData {
  coins: number;
}

/** What a client may send. */
type ClientMessage = { type: 'earn'; coins: number } | { type: 'get' };

function parse(raw: string): ClientMessage | undefined {
  try {
    const message = JSON.parse(raw) as Partial<ClientMessage> & { coins?: unknown };
    if (message.type === 'get') return { type: 'get' };
    if (message.type === 'earn' && Number.isInteger(message.coins))
      return { type: 'earn', coins: message.coins as number };
  } catch {
    // not JSON: ignored below
  }
  return undefined;
}

/** Wires a connected player's messages to their profile. */
export function play(driver: DataDriver<PlayerData>, player: SocketPlayer): void {
  player.socket.on('message', (raw) => {
    const message = parse(raw.toString());
    const profile = driver.profile(player.id);
    if (!message || !profile) {
      send(player, {
        type: 'error',
        message: profile ? 'unknown message' : 'profile not loaded yet',
      });
      return;
    }
    if (message.type === 'earn') profile.data.coins += message.coins;
    send(player, { type: 'state', coins: profile.data.coins });
  });
}

/**
 * The game's `onMessage`: a grant or gift adds its coins. Anything else throws, so it stays
 * pending (and is warned about) rather than being recorded as applied with no effect.
 */
export function applyMessage(
  notices: GiftNotices,
): (profile: MessageTarget<PlayerData>, message: ProfileMessage) => void {
  return (profile, message) => {
    const grant = grantOf(message.body);
    if (!grant) throw new Error(`message ${message.id} is not a grant: { "coins": n } expected`);
    profile.data.coins += grant.coins;
    notices.applied(profile.key, {
      id: message.id,
      coins: grant.coins,
      ...(message.from === undefined ? {} : { from: message.from }),
    });
  };
}
