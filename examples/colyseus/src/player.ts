/**
 * A player on the real Colyseus client: joins a coin room on a process, earns coins, and sees
 * the close code and reason of a kick.
 */
import { Client, type Room } from 'colyseus.js';

export interface Joined {
  readonly room: Room;
  /** The coins of the profile the room loaded. */
  readonly coins: number;
  /** From the join call to the room's `loaded` message, on the client. */
  readonly waitedMs: number;
  /** The server's load of the profile (the hand-over or takeover wait), as it measured it. */
  readonly loadMs: number;
}

/** Creates a coin room on the process at `url` and joins it as `user`. */
export async function joinRoom(url: string, user: string): Promise<Joined> {
  const started = performance.now();
  const room = await new Client(url).create('coins', { user });
  return loaded(room, started);
}

/** Colyseus's answer to a reconnection token it does not hold (yet, or any more). */
const MATCHMAKE_EXPIRED = 4214;

/**
 * Reconnects a dropped room with its token, as a client does after a blip: the server may not
 * have noticed the drop yet (and so not yet held the seat), so an unknown token is retried
 * every 100 ms for up to 2 s.
 */
export async function reconnect(url: string, token: string): Promise<Room> {
  const client = new Client(url);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await client.reconnect(token);
    } catch (error) {
      if ((error as { code?: number }).code !== MATCHMAKE_EXPIRED || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Resolves with the room once it reports the loaded profile. */
async function loaded(room: Room, started: number): Promise<Joined> {
  const message = await next<{ coins: number; waitedMs: number }>(room, 'loaded');
  return {
    room,
    coins: message.coins,
    waitedMs: performance.now() - started,
    loadMs: message.waitedMs,
  };
}

/** Earns `coins` and resolves with the new balance. */
export async function earn(room: Room, coins: number): Promise<number> {
  const reply = next<number>(room, 'coins');
  room.send('earn', coins);
  return reply;
}

/** Resolves with the close code and reason the room was left with. */
export function leftWith(room: Room): Promise<{ code: number; reason: string | undefined }> {
  return new Promise((resolve) => room.onLeave.once((code, reason) => resolve({ code, reason })));
}

function next<T>(room: Room, type: string, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${type} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const off = room.onMessage(type, (message: T) => {
      clearTimeout(timer);
      off();
      resolve(message);
    });
  });
}
