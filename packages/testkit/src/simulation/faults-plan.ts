/**
 * The faults a run injects, drawn from the seed's fault stream: store writes that fail,
 * commit with the response lost, stall or slow down; presence writes and reads that fail or
 * slow down, and a live server's presence key that the backend loses; messages dropped,
 * duplicated or delayed (and so reordered); crashes, stalls and graceful shutdowns of whole
 * servers (with their second drivers); and the compound faults of compound-faults.ts. Each
 * hits one live server's own connections, through the fault decorators. Subscriptions that
 * fail and servers with handoff off are drawn with the config.
 */
import type { FaultSpec } from '@datadriver/core/testing';
import { endAfter, olderCopyTakeover, retainedTaken, shutdownMidTrade } from './compound-faults.js';
import type { Monitor } from './monitor.js';
import { crash, shutdown } from './server-ends.js';
import { driversOf } from './side-drivers.js';
import type { SimServer, World } from './world.js';

export type FaultAction =
  | 'store-fail'
  | 'store-lose-response'
  | 'store-stall'
  | 'store-latency'
  | 'presence-write-outage'
  | 'presence-read-fail'
  | 'presence-latency'
  | 'presence-key-lost'
  | 'publish-drop'
  | 'publish-fail'
  | 'deliver-drop'
  | 'deliver-duplicate'
  | 'deliver-delay'
  | 'crash'
  | 'crash-mid-trade'
  | 'stall-mid-trade'
  | 'server-stall'
  | 'shutdown'
  | 'older-copy-takeover'
  | 'retained-taken'
  | 'shutdown-mid-trade';

const WEIGHTS: Readonly<Record<FaultAction, number>> = {
  'store-fail': 10,
  'store-lose-response': 8,
  'store-stall': 9,
  'store-latency': 5,
  'presence-write-outage': 6,
  'presence-read-fail': 5,
  'presence-latency': 3,
  'presence-key-lost': 5,
  'publish-drop': 3,
  'publish-fail': 3,
  'deliver-drop': 4,
  'deliver-duplicate': 5,
  'deliver-delay': 9,
  crash: 3,
  'crash-mid-trade': 3,
  'stall-mid-trade': 3,
  'server-stall': 4,
  shutdown: 1,
  'older-copy-takeover': 3,
  'retained-taken': 2,
  'shutdown-mid-trade': 2,
};

type Inject = (world: World, server: SimServer, monitor: Monitor) => void;

/** With the run's fault rate, injects one fault into one live server. */
export function maybeInjectFault(world: World, monitor: Monitor): void {
  const random = world.random.faults;
  if (!random.chance(world.config.faultRate)) return;
  const servers = world.liveServers();
  if (servers.length === 0) return;
  const server = random.pick(servers);
  const action = random.weighted(WEIGHTS);
  monitor.count(`fault.${action}`);
  FAULTS[action](world, server, monitor);
}

/**
 * Which store calls a fault hits: any key, one player's record, or the trade journals; and
 * half the time not the next matching call but one a few calls later, so that faults land
 * inside multi-write sequences (a trade's prepare, markers, decision and saves; a load's
 * recovery) and not only at their start.
 */
function storeTarget(world: World): { readonly text: string; readonly spec: Partial<FaultSpec> } {
  const random = world.random.faults;
  const skip = random.chance(0.5) ? random.int(1, 5) : 0;
  const after = skip ? ` (after ${skip} that pass)` : '';
  const roll = random.next();
  if (roll < 0.5) return { text: after, spec: { skip } };
  if (roll < 0.85) {
    const player = random.pick(world.players).id;
    return { text: ` of ${player}${after}`, spec: { key: world.storeKey(player), skip } };
  }
  return {
    text: ` of trade journals${after}`,
    spec: { matches: (key) => key.startsWith(world.journalPrefix), skip },
  };
}

function times(world: World, max: number): number {
  return world.random.faults.int(1, max);
}

const FAULTS: Readonly<Record<FaultAction, Inject>> = {
  'store-fail': (world, server) => {
    const target = storeTarget(world);
    const count = times(world, 3);
    server.test.store.faults.inject({
      kind: 'fail',
      operation: 'update',
      times: count,
      ...target.spec,
    });
    world.note(`fault: ${count} store writes${target.text} fail`, server.label);
  },
  'store-lose-response': (world, server) => {
    const target = storeTarget(world);
    const count = times(world, 2);
    server.test.store.faults.inject({
      kind: 'lose-response',
      operation: 'update',
      times: count,
      ...target.spec,
    });
    world.note(`fault: ${count} store writes${target.text} lose their response`, server.label);
  },
  'store-stall': (world, server) => {
    const random = world.random.faults;
    const target = storeTarget(world);
    // Short stalls race the handoff; long ones outlast lockTtl + lockSkew (a stalling holder).
    const ms = random.chance(0.6)
      ? random.int(100, 3000)
      : random.int(10_000, world.staleAfterMs + 30_000);
    const stall = server.test.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      times: Number.POSITIVE_INFINITY,
      ...target.spec,
    });
    const text = `store writes${target.text} stall for ${ms} ms`;
    world.note(`fault: ${text}`, server.label);
    server.stalled(world.now(), world.now() + ms);
    endAfter(world, server, ms, text, [stall]);
  },
  'store-latency': (world, server) => {
    const ms = world.random.faults.int(50, 2000);
    const count = times(world, 5);
    const fault = server.test.store.faults.inject({ kind: 'latency', ms, times: count });
    server.slowed(world.now(), fault, ms, count);
    world.note(`fault: next ${count} store calls take ${ms} ms longer`, server.label);
  },
  'presence-write-outage': (world, server) => {
    // A live server that cannot beat reads as stopped (Gotchas): its locks may be taken.
    const ms = world.random.faults.int(2000, 40_000);
    const fault = server.test.presence.faults.inject({
      kind: 'fail',
      operation: 'set',
      times: Number.POSITIVE_INFINITY,
    });
    const text = `presence writes fail for ${ms} ms`;
    world.note(`fault: ${text}`, server.label);
    endAfter(world, server, ms, text, [fault]);
  },
  'presence-read-fail': (world, server) => {
    const count = times(world, 6);
    server.test.presence.faults.inject({ kind: 'fail', operation: 'get', times: count });
    world.note(`fault: next ${count} presence reads fail (unknown)`, server.label);
  },
  'presence-latency': (world, server) => {
    const ms = world.random.faults.int(20, 1500);
    const count = times(world, 5);
    const operation = world.random.faults.pick(['get', 'set']);
    const fault = server.test.presence.faults.inject({
      kind: 'latency',
      operation,
      ms,
      times: count,
    });
    server.slowed(world.now(), fault, ms, count);
    world.note(`fault: next ${count} presence ${operation}s take ${ms} ms longer`, server.label);
  },
  'presence-key-lost': (world, server, monitor) => {
    // The backend loses a live server's key (a failover, an eviction): absent until its next
    // beat, less than a beat later. Two empty reads a beat apart cannot both fall in the gap.
    world.backend.losePresence(server.jobId);
    world.note('fault: its presence key is lost (it beats on)', server.label);
    monitor.flow('presence-key-lost');
  },
  'publish-drop': (world, server) => {
    const count = times(world, 3);
    server.test.messenger.faults.inject({ kind: 'drop', operation: 'publish', times: count });
    world.note(`fault: next ${count} messages sent are lost`, server.label);
  },
  'publish-fail': (world, server) => {
    const count = times(world, 3);
    server.test.messenger.faults.inject({ kind: 'fail', operation: 'publish', times: count });
    world.note(`fault: next ${count} publishes fail`, server.label);
  },
  'deliver-drop': (world, server) => {
    const count = times(world, 3);
    server.test.messenger.faults.inject({ kind: 'drop', operation: 'deliver', times: count });
    world.note(`fault: next ${count} messages received are dropped`, server.label);
  },
  'deliver-duplicate': (world, server) => {
    const count = times(world, 3);
    server.test.messenger.faults.inject({ kind: 'duplicate', operation: 'deliver', times: count });
    world.note(`fault: next ${count} messages received arrive twice`, server.label);
  },
  'deliver-delay': (world, server) => {
    const random = world.random.faults;
    const ms = random.chance(0.5) ? random.int(100, 3000) : random.int(3000, 30_000);
    const count = times(world, 4);
    server.test.messenger.faults.inject({ kind: 'delay', operation: 'deliver', ms, times: count });
    world.note(`fault: next ${count} messages received arrive ${ms} ms late`, server.label);
  },
  crash: (world, server, monitor) => crash(world, server, monitor),
  'crash-mid-trade': (world, _server, monitor) => {
    // A trade's writes take a few store calls: a crash among them leaves markers for the
    // next load to settle from the journal (transaction recovery).
    const trading = [...world.trades.values()]
      .filter((trade) => trade.outcome === 'pending')
      .map((trade) => trade.server)
      .filter((server) => server.live);
    if (trading.length === 0) return;
    const server = world.random.faults.pick(trading);
    const ms = world.random.faults.int(0, 4 * world.config.latency.storeMs);
    world.note(`fault: crashes in ${ms} ms, mid-trade`, server.label);
    world.clock.schedule(ms, () => {
      if (server.live) crash(world, server, monitor);
    });
  },
  'stall-mid-trade': (world, server) => {
    // A server that lives on, but whose next trade's commit hangs past its locks' age while
    // its beats fail: other servers may take a participant's lock and settle the trade's
    // marker while the trade is still running (a recovering load racing its commit).
    const random = world.random.faults;
    const ms = random.int(world.staleAfterMs, world.staleAfterMs + 30_000);
    const faults = [
      server.test.store.faults.inject({
        kind: 'stall',
        operation: 'update',
        matches: (key) => key.startsWith(world.journalPrefix),
        skip: 1, // the next trade's prepare lands; its commit (and every journal write after) hangs
        times: Number.POSITIVE_INFINITY, // until removed: the final phase's heal ends it too
      }),
      server.test.presence.faults.inject({
        kind: 'fail',
        operation: 'set',
        times: Number.POSITIVE_INFINITY,
      }),
    ];
    const text = `journal writes after the next stall, and presence writes fail, for ${ms} ms`;
    world.note(`fault: ${text}`, server.label);
    server.stalled(world.now(), world.now() + ms);
    endAfter(world, server, ms, text, faults);
  },
  'server-stall': (world, server) => {
    // Every call of the server hangs, then goes on: a long pause of the whole process.
    const ms = world.random.faults.int(1000, 40_000);
    const spec = { kind: 'stall', times: Number.POSITIVE_INFINITY } as const;
    const faults = driversOf(world, server).flatMap((driver) => [
      driver.test.store.faults.inject(spec),
      driver.test.presence.faults.inject(spec),
      driver.test.messenger.faults.inject(spec),
    ]);
    const text = `the whole server stalls for ${ms} ms`;
    world.note(text, server.label);
    server.stalled(world.now(), world.now() + ms);
    endAfter(world, server, ms, text, faults);
  },
  shutdown: (world, server) => shutdown(world, server),
  'older-copy-takeover': (world, _server, monitor) => olderCopyTakeover(world, monitor),
  'retained-taken': (world, _server, monitor) => retainedTaken(world, monitor),
  'shutdown-mid-trade': (world, server) =>
    shutdownMidTrade(world, server, (exitAfterMs) => shutdown(world, server, exitAfterMs)),
};
