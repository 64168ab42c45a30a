/** The player's side of a story: arriving on a server, and playing there. */
import type { PlayerClient } from '@datadriver/example-game-server/player-client';
import type { RealServer } from '../real-server.js';
import type { RedisWorld } from '../redis-world.js';
import { PLAYER } from '../run-names.js';

/** What the player's client was told on arrival: loaded with coins, or kicked with a message. */
export type Arrival = Awaited<ReturnType<typeof arrival>>;

/** The client's first answer after connecting: its profile loaded, or a kick. */
export function arrival(client: PlayerClient) {
  return client.next('loaded');
}

/** The player joins `server`, loads, and earns up to `coins`; resolves with their client. */
export async function playingOn(server: RealServer, coins: number): Promise<PlayerClient> {
  const client = await server.join();
  const arrived = await arrival(client);
  if (arrived.type !== 'loaded') {
    throw new Error(`${PLAYER} was kicked on ${server.label}: ${arrived.message}`);
  }
  if (coins !== arrived.coins) await client.earn(coins - arrived.coins);
  return client;
}

/** The message a kick told the player's client (it throws when none comes). */
export async function kickMessage(client: PlayerClient): Promise<string> {
  return (await client.next('kicked', 10_000)).message;
}

/**
 * The player leaves `server` (started with faults) and its leave save fails once; resolves a
 * second after the player left, once the failure is reported: when the player comes back.
 */
export async function leaveWithFailedSave(
  world: RedisWorld,
  server: RealServer,
  client: PlayerClient,
): Promise<void> {
  await server.inject({ kind: 'fail', operation: 'update', times: 1 });
  const failed = world.next(server.label, ['profile.release-failed'], PLAYER);
  const leftAt = Date.now();
  await server.leave(client);
  await failed;
  await world.sleep(leftAt + 1000 - Date.now());
}
