/**
 * A player that plays on one server, hops to another while still connected, and now and then
 * leaves and rejoins, checking at every arrival that its coins are all there. When the server
 * it plays on goes away (a crash: the connection drops), it joins the next server, as a game
 * client reconnects, and reports how long the takeover took and what the crash cost. `runBot` is
 * the library; `bot-cli.ts` prints each arrival.
 */
import { type Closed, PlayerClient } from '@datadriver/example-game-server/player-client';
import { type GiftArrival, sendGift } from './gift.js';

export interface BotOptions {
  /** ws://host:port of each server, hopped through in turn. */
  readonly servers: readonly string[];
  readonly user: string;
  readonly hops: number;
  /** Every this many hops, leave first and rejoin (a disconnect, not a live hop). Default 3. */
  readonly rejoinEvery?: number;
  /** How long to play on each server before hopping on (default 0). */
  readonly playMs?: number;
  /**
   * After a crash, how many joins the next server may refuse ("still in use", when the takeover
   * outlasts its lockWaitSeconds) before the bot gives up. Default 3.
   */
  readonly takeoverAttempts?: number;
  /** Called with each arrival. */
  readonly onHop?: (hop: Hop) => void;
  /**
   * At this hop, before playing on, grant the player `giftCoins` through another server's
   * `POST /grant` and wait until the client is told (`onGift`). None when unset.
   */
  readonly giftAt?: number;
  /** The gift's coins (default 100). */
  readonly giftCoins?: number;
  /** Called with the gift once the client was told of it. */
  readonly onGift?: (gift: GiftArrival) => void;
}

export interface Hop {
  readonly index: number;
  readonly kind: 'join' | 'live hop' | 'rejoin' | 'takeover';
  readonly from?: string;
  readonly to: string;
  /**
   * From connecting to the profile loaded, as the player saw it; for a takeover, from the
   * moment the old connection ended, every refused join included.
   */
  readonly waitMs: number;
  /** The driver's own measure of the load's wait (of the last join, for a takeover). */
  readonly serverWaitMs: number | undefined;
  readonly coins: number;
  /** What the old server told the old connection, or how the connection ended. */
  readonly oldSessionEnded?: string;
  /** A takeover: coins earned on the server that went away that its last save did not hold. */
  readonly lostCoins?: number;
  /** A takeover: joins the next server kicked before one loaded. */
  readonly refusedJoins?: number;
}

/** A connection to one server, and when it ended. */
interface Session {
  readonly server: string;
  readonly client: PlayerClient;
  /** `performance.now()` when the connection ended, once it has. */
  endedAt?: number;
  ended?: Closed;
}

export async function runBot(options: BotOptions): Promise<Hop[]> {
  const { servers, user } = options;
  const rejoinEvery = options.rejoinEvery ?? 3;
  const hops: Hop[] = [];
  const record = (hop: Hop): void => {
    hops.push(hop);
    options.onHop?.(hop);
  };
  /** Coins the servers reported last, and those known to be stored (the last arrival's). */
  let coins = 0;
  let stored = 0;
  let arrived = await arriveFrom(servers, 0, user);
  let current = arrived.session;
  coins = exact(arrived.coins, 0, 0, 'join');
  record({ index: 0, kind: 'join', to: current.server, ...arrived.timing, coins });
  for (let index = 1; index <= options.hops; index += 1) {
    if (index === options.giftAt) {
      const gift = await giftWhilePlaying(current, servers, user, index, options.giftCoins ?? 100);
      // Told once the save carrying it landed: the total is stored.
      coins = stored = exact(gift.total, coins + gift.coins, index, 'gift');
      options.onGift?.(gift);
    }
    const played = await play(current, index, options.playMs ?? 0);
    if (played === 'ended') {
      const takeover = await takeOver(current, servers, user, options.takeoverAttempts ?? 3);
      const lostCoins = coins - takeover.coins;
      if (takeover.coins < stored || lostCoins < 0) {
        throw new Error(
          `hop ${index} (takeover) loaded ${takeover.coins} coins; ${stored} were stored before and ${coins} earned`,
        );
      }
      record({ index, kind: 'takeover', from: current.server, ...takeover.hop, lostCoins });
      current = takeover.session;
      coins = stored = takeover.coins;
      continue;
    }
    coins = played;
    const rejoin = index % rejoinEvery === 0;
    const kind = rejoin ? 'rejoin' : 'live hop';
    if (rejoin) await current.client.close();
    arrived = await arriveFrom(servers, servers.indexOf(current.server) + 1, user, current.server);
    coins = stored = exact(arrived.coins, coins, index, kind);
    const ended = rejoin ? undefined : await oldSessionEnd(current);
    record({
      index,
      kind,
      from: current.server,
      to: arrived.session.server,
      ...arrived.timing,
      coins,
      ...(ended ? { oldSessionEnded: ended } : {}),
    });
    current = arrived.session;
  }
  await current.client.close();
  return hops;
}

/** Grants the player coins through the server after the one it plays on, as a webhook would. */
function giftWhilePlaying(
  session: Session,
  servers: readonly string[],
  user: string,
  index: number,
  coins: number,
): Promise<GiftArrival> {
  const webhook = servers[(servers.indexOf(session.server) + 1) % servers.length]!;
  // A receipt of this run's own: a second run with the same --user is granted again.
  const receipt = `${user}-gift-${index}-${Date.now()}`;
  return sendGift(session.client, { server: webhook, user }, { index, coins, receipt });
}

/** Earns `index` coins and plays on for `playMs`; 'ended' when the server went away meanwhile. */
async function play(session: Session, index: number, playMs: number): Promise<number | 'ended'> {
  let coins: number;
  try {
    coins = await session.client.earn(index);
  } catch (error) {
    if (!(await endsSoon(session))) throw error;
    return 'ended';
  }
  if (playMs > 0) {
    const ended = session.client.closed.then(() => 'ended' as const);
    const rested = new Promise<'played'>((resolve) => setTimeout(resolve, playMs, 'played'));
    if ((await Promise.race([ended, rested])) === 'ended') return 'ended';
  }
  return coins;
}

/** Whether the connection ends within a moment (a failed earn on a live one is a bug). */
async function endsSoon(session: Session): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(resolve, 5_000, false));
  return Promise.race([session.client.closed.then(() => true), timeout]);
}

/**
 * The server the player was on went away: join the next ones in turn until one loads the
 * profile, rejoining when a join is kicked because the lock is still being waited out.
 */
async function takeOver(gone: Session, servers: readonly string[], user: string, attempts: number) {
  const since = gone.endedAt ?? performance.now();
  let refusedJoins = 0;
  for (;;) {
    const arrived = await arriveFrom(servers, servers.indexOf(gone.server) + 1, user, gone.server, {
      acceptKick: true,
    });
    if (arrived.kicked === undefined) {
      const hop = {
        to: arrived.session.server,
        waitMs: Math.round(performance.now() - since),
        serverWaitMs: arrived.timing.serverWaitMs,
        coins: arrived.coins,
        oldSessionEnded: describeEnd(gone.ended),
        refusedJoins,
      };
      return { session: arrived.session, coins: arrived.coins, hop };
    }
    refusedJoins += 1;
    if (refusedJoins >= attempts) {
      throw new Error(
        `after ${gone.server} went away, ${refusedJoins} joins were refused: ${arrived.kicked}`,
      );
    }
  }
}

type Arrival = {
  readonly session: Session;
  readonly coins: number;
  readonly kicked?: string;
  readonly timing: { readonly waitMs: number; readonly serverWaitMs: number | undefined };
};

/**
 * Joins the first server, from `servers[start]` on in turn (never `skip`), that accepts the
 * connection: a server that refuses it (stopped, crashed) is passed over.
 */
async function arriveFrom(
  servers: readonly string[],
  start: number,
  user: string,
  skip?: string,
  options: { acceptKick?: boolean } = {},
): Promise<Arrival> {
  const refused: string[] = [];
  for (let offset = 0; offset < servers.length; offset += 1) {
    const server = servers[(start + offset) % servers.length]!;
    if (server === skip) continue;
    const started = performance.now();
    let client: PlayerClient;
    try {
      client = await PlayerClient.connect(server, user);
    } catch (error) {
      refused.push(`${server} (${(error as Error).message})`);
      continue;
    }
    const session: Session = { server, client };
    void client.closed.then((closed) => {
      session.endedAt = performance.now();
      session.ended = closed;
    });
    const loaded = await client.next('loaded');
    const timing = { waitMs: Math.round(performance.now() - started), serverWaitMs: undefined };
    if (loaded.type === 'kicked') {
      if (!options.acceptKick) throw new Error(`kicked on ${server}: ${loaded.message}`);
      await client.close();
      return { session, coins: 0, kicked: loaded.message, timing };
    }
    return { session, coins: loaded.coins, timing: { ...timing, serverWaitMs: loaded.waitedMs } };
  }
  throw new Error(`no server accepted the connection: ${refused.join('; ')}`);
}

/** What the old server told the old connection on a live hop. */
async function oldSessionEnd(old: Session): Promise<string> {
  const kicked = await old.client.next('state', 10_000).catch(() => undefined);
  await old.client.close();
  return kicked?.type === 'kicked' ? kicked.message : 'not kicked';
}

function describeEnd(closed: Closed | undefined): string {
  if (!closed || closed.code === 1006) return 'the connection dropped';
  return `the server closed the connection (${closed.code}${closed.reason ? `: ${closed.reason}` : ''})`;
}

/** The coins that loaded must be every coin earned before the hop: no lost progress, no rollback. */
function exact(loaded: number, expected: number, index: number, kind: string): number {
  if (loaded !== expected) {
    throw new Error(`hop ${index} (${kind}) loaded ${loaded} coins, expected ${expected}`);
  }
  return loaded;
}
