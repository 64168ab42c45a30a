/**
 * The players' side of a run: join, leave, rejoin on the same or another server (also while
 * the old server still thinks they are connected), earn, save and trade. Each step draws one
 * action from the workload's own stream; an action that has nobody to act on does nothing.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { Invariant } from './invariants.js';
import type { Monitor } from './monitor.js';
import { applyTrade, earn, progressOf, type SimData } from './player-data.js';
import { sideStep } from './side-drivers.js';
import type { SimPlayer, SimServer, World } from './world.js';

export type WorkloadAction =
  | 'join'
  | 'hop'
  | 'leave'
  | 'earn'
  | 'save'
  | 'trade'
  | 'drop'
  | 'hop-trader'
  | 'reconnect'
  | 'side'
  | 'pause';

const WEIGHTS: Readonly<Record<WorkloadAction, number>> = {
  join: 22,
  hop: 8,
  leave: 11,
  earn: 30,
  save: 5,
  trade: 10,
  drop: 5,
  'hop-trader': 3,
  reconnect: 3,
  side: 6,
  pause: 5,
};

type Act = (world: World, monitor: Monitor) => void;

/** Plays one workload step and returns what it drew. */
export function workloadStep(world: World, monitor: Monitor): WorkloadAction {
  syncPlayers(world);
  const action = world.random.workload.weighted(WEIGHTS);
  ACTIONS[action](world, monitor);
  return action;
}

/** Learns what happened to players since the last step: kicks, crashes, shutdowns. */
export function syncPlayers(world: World): void {
  for (const player of world.players) {
    const server = player.current;
    if (server && (!server.live || !server.test.host.has(player.id))) player.current = undefined;
  }
}

const ACTIONS: Readonly<Record<WorkloadAction, Act>> = {
  join: (world, monitor) => {
    const player = pickPlayer(world, (candidate) => candidate.current === undefined);
    if (!player) return;
    const last = player.last?.live ? player.last : undefined;
    const server = last && world.random.workload.chance(0.4) ? last : pickServer(world);
    if (server) connect(world, monitor, player, server, 'joins');
  },
  hop: (world, monitor) => {
    // The player is on another server before this one noticed they left: a stale connection.
    const player = pickPlayer(world, (candidate) => candidate.current !== undefined);
    const server = player && pickServer(world, player.current);
    if (player && server) connect(world, monitor, player, server, 'hops (old connection stays)');
  },
  'hop-trader': (world, monitor) => {
    // A player whose trade is still pending joins another server: its load meets the trade's
    // marker on a lock the trading server holds (and takes it, once that lock may change hands).
    const player = pickPlayer(world, (candidate) => candidate.trading && !!candidate.current);
    const server = player && pickServer(world, player.current);
    if (player && server) connect(world, monitor, player, server, 'hops mid-trade');
  },
  reconnect: (world) => {
    // The player connects again to the same server before it noticed the old connection
    // close (a second tab, a reconnect before the socket timed out): the newest one wins.
    const player = pickPlayer(world, (candidate) => candidate.current?.live === true);
    const server = player?.current;
    if (!player || !server) return;
    world.note(`${player.id} reconnects (old connection stays)`, server.label, player.id);
    server.test.join(player.id);
  },
  leave: (world, monitor) => {
    const player = pickPlayer(world, (candidate) => candidate.current !== undefined);
    if (!player?.current) return;
    disconnect(world, monitor, player.current, player, 'leaves');
    player.current = undefined;
  },
  drop: (world, monitor) => {
    const stale = staleConnections(world);
    if (stale.length === 0) return;
    const [server, player] = world.random.workload.pick(stale);
    disconnect(world, monitor, server, player, 'old connection dropped');
  },
  earn: (world) => {
    const player = pickPlayer(world, (candidate) => playing(candidate) !== undefined);
    const profile = player && playing(player);
    if (!player || !profile) return;
    const coins = world.random.workload.int(1, 10);
    earn(profile.data, coins);
    world.note(
      `earns ${coins} (progress ${progressOf(profile.data)})`,
      player.current?.label,
      player.id,
    );
  },
  save: (world, monitor) => {
    const player = pickPlayer(world, (candidate) => playing(candidate) !== undefined);
    const profile = player && playing(player);
    if (!player || !profile) return;
    world.note('save', player.current?.label, player.id);
    profile.save().catch((error: unknown) => expected(monitor, error));
  },
  trade: (world, monitor) => trade(world, monitor),
  side: (world) => sideStep(world),
  pause: () => undefined,
};

/** The active profile of a player on their current server, unless a trade holds it. */
function playing(player: SimPlayer) {
  if (!player.current || player.trading) return undefined;
  return player.current.profile(player.id);
}

function pickPlayer(world: World, eligible: (player: SimPlayer) => boolean): SimPlayer | undefined {
  const candidates = world.players.filter(eligible);
  return candidates.length ? world.random.workload.pick(candidates) : undefined;
}

function pickServer(world: World, except?: SimServer): SimServer | undefined {
  const candidates = world.liveServers().filter((server) => server !== except);
  return candidates.length ? world.random.workload.pick(candidates) : undefined;
}

function staleConnections(world: World): Array<[SimServer, SimPlayer]> {
  const stale: Array<[SimServer, SimPlayer]> = [];
  for (const server of world.liveServers()) {
    for (const player of world.players) {
      if (player.current !== server && server.test.host.has(player.id))
        stale.push([server, player]);
    }
  }
  return stale;
}

/** The player connects to `server` (their profile starts loading there). */
export function connect(
  world: World,
  monitor: Monitor,
  player: SimPlayer,
  server: SimServer,
  verb: string,
): void {
  // A host has one connection per player: an old one there is dropped first, as a real
  // server notices the old connection closing before the new one arrives.
  if (server.test.host.has(player.id))
    disconnect(world, monitor, server, player, 'old connection dropped');
  world.note(`${player.id} ${verb}`, server.label, player.id);
  player.current = server;
  player.last = server;
  server.test.join(player.id);
}

/** The player's connection to `server` closes (their profile starts its leave save). */
export function disconnect(
  world: World,
  monitor: Monitor,
  server: SimServer,
  player: SimPlayer,
  why: string,
) {
  world.note(`${player.id} ${why}`, server.label, player.id);
  monitor.tracker.removed(server.label, player.id, world.now());
  server.test.leave(player.id);
}

function trade(world: World, monitor: Monitor): void {
  const byServer = new Map<SimServer, SimPlayer[]>();
  for (const player of world.players) {
    if (!playing(player) || !player.current) continue;
    byServer.set(player.current, [...(byServer.get(player.current) ?? []), player]);
  }
  const pairs = [...byServer.entries()].filter(([, players]) => players.length >= 2);
  if (pairs.length === 0) return;
  const random = world.random.workload;
  const [server, players] = random.pick(pairs);
  const from = random.pick(players);
  const to = random.pick(players.filter((player) => player !== from));
  const terms = {
    id: `X${world.trades.size + 1}`,
    from: from.id,
    to: to.id,
    amount: random.int(1, 20),
  };
  world.trades.set(terms.id, { ...terms, server, outcome: 'pending' });
  world.note(`trade ${terms.id}: ${from.id} gives ${to.id} ${terms.amount} coins`, server.label);
  from.trading = true;
  to.trading = true;
  const a = server.profile(from.id)!;
  const b = server.profile(to.id)!;
  const settle = (outcome: 'committed' | 'failed' | 'undecided') => () => {
    world.trades.get(terms.id)!.outcome = outcome;
    from.trading = false;
    to.trading = false;
  };
  server.test.driver
    .trade(a, b, (x, y) => applyTrade(terms, x as SimData, y as SimData))
    .then(settle('committed'), (error: unknown) => {
      // Closed while its commit was being written: it may have landed (core's trade.ts).
      const undecided =
        DataDriverError.is(error, ErrorCode.Closed) && error.details.decision === 'committed';
      settle(undecided ? 'undecided' : 'failed')();
      expected(monitor, error);
    });
}

/** Driver calls fail only with DataDriverErrors; anything else is a bug. */
function expected(monitor: Monitor, error: unknown): void {
  if (DataDriverError.isInstance(error)) return;
  monitor.report({
    invariant: Invariant.UnexpectedError,
    message: `a driver call failed with ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  });
}
