/**
 * The game: a player connects with a user id, their profile loads (or they are kicked), and
 * each `earn` message adds coins to it; `give` sends some to another player, wherever they
 * are (a transfer: `profile.send`). Grants (`POST /grant`) and gifts reach the profile as
 * messages, applied once by whichever server holds it. Everything about the lock is DataDriver's.
 */
import { randomUUID } from 'node:crypto';
import type { DataDriver, MessageTarget, Profile, ProfileMessage } from '@datadriver/core';
import type { GiftNotices } from './gift-notices.js';
import { grantOf } from './grant-request.js';
import { type SocketPlayer, send } from './websocket-host.js';

export interface PlayerData {
  coins: number;
}

/** What a client may send. */
type ClientMessage =
  | { type: 'earn'; coins: number }
  | { type: 'get' }
  | { type: 'give'; to: string; coins: number };

function parse(raw: string): ClientMessage | undefined {
  try {
    const message = JSON.parse(raw) as Partial<ClientMessage> & { coins?: unknown; to?: unknown };
    if (message.type === 'get') return { type: 'get' };
    if (message.type === 'earn' && Number.isInteger(message.coins))
      return { type: 'earn', coins: message.coins as number };
    if (
      message.type === 'give' &&
      typeof message.to === 'string' &&
      Number.isInteger(message.coins)
    )
      return { type: 'give', to: message.to, coins: message.coins as number };
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
    if (message.type === 'give') {
      void give(profile, player, message.to, message.coins);
      return;
    }
    if (message.type === 'earn') profile.data.coins += message.coins;
    send(player, { type: 'state', coins: profile.data.coins });
  });
}

/**
 * Takes `coins` off the player and sends them to `to`, in one write: the debit and the
 * transfer are saved together, and the transfer is delivered once that save committed, so a
 * crash leaves both or neither. Answers `state` once saved, or `error` with nothing changed.
 */
async function give(
  profile: Profile<PlayerData>,
  player: SocketPlayer,
  to: string,
  coins: number,
): Promise<void> {
  if (coins < 1 || coins > profile.data.coins) {
    send(player, { type: 'error', message: `you can give 1 to ${profile.data.coins} coins` });
    return;
  }
  try {
    // Throws, changing nothing, for a bad recipient (this player, an invalid key) or a full outbox.
    profile.send(to, { coins }, { id: `gift-${randomUUID()}` });
  } catch (error) {
    send(player, {
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  profile.data.coins -= coins;
  try {
    await profile.save();
    send(player, { type: 'state', coins: profile.data.coins });
  } catch (error) {
    // Still recorded in the session: its next save (an autosave, the leave) carries both.
    send(player, { type: 'error', message: `the gift is not saved yet: ${String(error)}` });
  }
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
