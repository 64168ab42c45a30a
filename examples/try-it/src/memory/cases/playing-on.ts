import type { DemoServer } from '../demo-server.js';
import type { DemoWorld } from '../demo-world.js';

export const PLAYER = 'p1';

/** Player p1 loaded on `server` with `coins`; saved first when `saved` says so. */
export async function playingOn(
  world: DemoWorld,
  server: DemoServer,
  coins: number,
  saved = false,
): Promise<void> {
  const loaded = world.loadOutcome(server.label, PLAYER);
  server.join(PLAYER);
  if ((await loaded).type !== 'load.loaded') throw new Error(`p1 did not load on ${server.label}`);
  const profile = server.profile(PLAYER)!;
  profile.data.coins = coins;
  if (saved) await profile.save();
}
