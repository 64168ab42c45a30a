/**
 * The game: a player connects with a user id, their profile loads (or they are kicked), and
 * each `earn` message adds coins to it. Everything about the lock is DataDriver's.
 */
import type { DataDriver } from '@datadriver/core';
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
