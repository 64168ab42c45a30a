/**
 * A player that plays on one server, hops to another while still connected, and now and then
 * leaves and rejoins, checking at every arrival that its coins are all there. `runBot` is the
 * library; `bot-cli.ts` prints each wait.
 */
import { PlayerClient } from '@datadriver/example-game-server/player-client';

export interface BotOptions {
  /** ws://host:port of each server, hopped through in turn. */
  readonly servers: readonly string[];
  readonly user: string;
  readonly hops: number;
  /** Every this many hops, leave first and rejoin (a disconnect, not a live hop). Default 3. */
  readonly rejoinEvery?: number;
  /** Called with each arrival. */
  readonly onHop?: (hop: Hop) => void;
}

export interface Hop {
  readonly index: number;
  readonly kind: 'join' | 'live hop' | 'rejoin';
  readonly from?: string;
  readonly to: string;
  /** From connecting to the profile loaded, as the player saw it. */
  readonly waitMs: number;
  /** The driver's own measure of the load's wait. */
  readonly serverWaitMs: number | undefined;
  readonly coins: number;
  /** What the old server told the old connection, on a live hop. */
  readonly oldSessionEnded?: string;
}

export async function runBot(options: BotOptions): Promise<Hop[]> {
  const { servers, user } = options;
  const hops: Hop[] = [];
  let coins = 0;
  let current = await arrive(servers[0]!, user);
  coins = checked(current.loaded, coins, 0, 'join');
  record({ index: 0, kind: 'join', to: servers[0]!, ...current.timing, coins });
  for (let index = 1; index <= options.hops; index += 1) {
    coins = await current.client.earn(index);
    const from = servers[(index - 1) % servers.length]!;
    const to = servers[index % servers.length]!;
    const rejoin = index % (options.rejoinEvery ?? 3) === 0;
    if (rejoin) await current.client.close();
    const next = await arrive(to, user);
    coins = checked(next.loaded, coins, index, rejoin ? 'rejoin' : 'live hop');
    let ended: string | undefined;
    if (!rejoin) {
      const kicked = await current.client.next('state', 10_000).catch(() => undefined);
      ended = kicked?.type === 'kicked' ? kicked.message : 'not kicked';
      await current.client.close();
    }
    record({
      index,
      kind: rejoin ? 'rejoin' : 'live hop',
      from,
      to,
      ...next.timing,
      coins,
      ...(ended ? { oldSessionEnded: ended } : {}),
    });
    current = next;
  }
  await current.client.close();
  return hops;

  function record(hop: Hop): void {
    hops.push(hop);
    options.onHop?.(hop);
  }
}

async function arrive(server: string, user: string) {
  const started = performance.now();
  const client = await PlayerClient.connect(server, user);
  const loaded = await client.next('loaded');
  if (loaded.type === 'kicked') throw new Error(`kicked on ${server}: ${loaded.message}`);
  const timing = { waitMs: Math.round(performance.now() - started), serverWaitMs: loaded.waitedMs };
  return { client, loaded, timing };
}

/** The coins that loaded must be every coin earned before the hop: no lost progress, no rollback. */
function checked(loaded: { coins: number }, expected: number, index: number, kind: string): number {
  if (loaded.coins !== expected) {
    throw new Error(`hop ${index} (${kind}) loaded ${loaded.coins} coins, expected ${expected}`);
  }
  return loaded.coins;
}
