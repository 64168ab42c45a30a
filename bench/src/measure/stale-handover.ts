/**
 * Live hand-over when the player's old connection is stale: the player on A moved to B, and
 * their connection to A is still open but silent (a relay in between stops passing bytes,
 * with no FIN or RST). Timed from the first join on B to the profile loaded on B, joins
 * refused after lockWaitSeconds retried as a client would. Between real game-server processes
 * at the seed's constants, all-Redis.
 */
import { startTcpProxy } from '@datadriver/backends';
import type { Combo } from '../backends.js';
import type { BenchConfig } from '../config.js';
import { joinAt, joinUntilLoaded, stopAll, WatchedServer } from '../processes/game-servers.js';

export interface StaleHandover {
  readonly waitedMs: number;
  readonly refusedJoins: number;
  readonly keptData: boolean;
}

const GIVE_UP_MS = 120_000;

export async function measureStaleHandover(
  combo: Combo,
  config: BenchConfig,
): Promise<StaleHandover[]> {
  const tag = `${process.pid}-${Date.now()}`;
  const servers = await Promise.all(
    ['A', 'B'].map((name) => WatchedServer.start(combo, `bench-stale-${tag}-${name}`, 1)),
  );
  try {
    const trials: StaleHandover[] = [];
    for (let n = 0; n < config.staleHandovers; n++) {
      trials.push(await staleHop(servers[0]!, servers[1]!, `stale-${tag}-${n}`));
    }
    return trials;
  } finally {
    await stopAll(servers);
  }
}

async function staleHop(
  holder: WatchedServer,
  target: WatchedServer,
  user: string,
): Promise<StaleHandover> {
  const relay = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(holder.url).port) });
  try {
    const old = await joinAt(`ws://127.0.0.1:${relay.port}`, user, 30_000);
    const coins = await old.client.earn(7); // unsaved on A: must travel
    relay.freeze();
    const started = performance.now();
    const { loaded, loadedAt, refusedJoins } = await joinUntilLoaded(target, user, GIVE_UP_MS);
    await loaded.client.close();
    return { waitedMs: loadedAt - started, refusedJoins, keptData: loaded.coins === coins };
  } finally {
    await relay.close();
  }
}
