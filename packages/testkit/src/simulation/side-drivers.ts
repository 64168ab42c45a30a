/**
 * The servers' second drivers (`SideDriverPlan` in config.ts), built beside each server's own
 * driver, on its clock and under its jobId, and crashed, stalled and stopped with it. An older
 * copy of the player data's driver is judged by every invariant, as its own "server" (its
 * label, "A2"); a driver of another name or over another backend by drivers-apart alone.
 */
import {
  DataDriver,
  DataDriverError,
  type DataDriverEvent,
  ErrorCode,
  type Logger,
} from '@datadriver/core';
import {
  FaultyMessenger,
  FaultyPresence,
  FaultyStore,
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
} from '@datadriver/core/testing';
import { HaltingScheduler } from '../cluster/halt.js';
import { type PlayerData, TestServer } from '../cluster/server.js';
import { skewed } from '../cluster/server-clock.js';
import { scaledTimings } from '../cluster/time.js';
import type { SideDriverPlan } from './config.js';
import { Invariant } from './invariants.js';
import type { Monitor } from './monitor.js';
import { earn, type SimData } from './player-data.js';
import { eventLine } from './trace-lines.js';
import { SimServer, type World } from './world.js';

const SILENT: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export async function addSideDriver(
  world: World,
  monitor: Monitor,
  plan: SideDriverPlan,
): Promise<void> {
  const server = world.serverByLabel(plan.server);
  if (!server) throw new Error(`no server ${plan.server} for driver ${plan.label}`);
  const { config, cluster, backend } = world;
  const scheduler = cluster.time.scheduler;
  const apart = plan.kind === 'other-backend';
  const latency = (ms: number) => ({ scheduler, latencyMs: ms });
  // Its own store object over the shared backend (its commits name it), or another backend.
  const store = new FaultyStore(
    apart ? new MemoryStore() : backend.storeFor(server.jobId, plan.label),
    latency(config.latency.storeMs),
  );
  const messenger = new FaultyMessenger(new MemoryMessenger(), latency(config.latency.messageMs));
  const presence = new FaultyPresence(
    new MemoryPresence(world.clock),
    latency(config.latency.presenceMs),
  );
  const clock = new HaltingScheduler(skewed(scheduler, server.plan.skewMs));
  const handoff = plan.handoff ? server.test.handoff : undefined;
  // One handoff routes one driver per name: a driver on the server's handoff takes another.
  const ownName = plan.kind === 'other-name' || (apart && handoff);
  let ids = 0;
  const driver = new DataDriver<PlayerData>({
    name: ownName ? `${cluster.driverName}-${plan.label}` : cluster.driverName,
    defaults: { coins: 0 },
    store,
    ...(apart && handoff ? { messenger, presence } : {}),
    scheduler: clock,
    logger: SILENT,
    jobId: server.jobId,
    handoff: handoff ?? false,
    lockWaitSeconds: config.lockWaitSeconds,
    lockTtlSeconds: config.lockTtlSeconds,
    lockSkewSeconds: config.lockSkewSeconds,
    autosaveSeconds: config.autosaveSeconds,
    timings: scaledTimings(1),
    createId: () => `${cluster.namespace}-${plan.label}x${++ids}`, // as run.ts's
  });
  const test = new TestServer(
    plan.label,
    server.jobId,
    new MemoryHost(server.jobId),
    driver,
    store,
    messenger,
    presence,
    undefined,
  );
  test.onCrash = () => clock.halt();
  const side = new SimServer(
    {
      label: plan.label,
      handoff: plan.handoff,
      skewMs: server.plan.skewMs,
      subscribeFailures: 0,
      handOverLocks: false,
    },
    test,
    { on: server, kind: plan.kind },
  );
  world.addSide(side);
  if (plan.kind === 'older-copy') driver.on((event) => monitor.onEvent(side, event));
  else {
    // Keys whose load here failed: a take that landed after it is this driver's own orphan.
    const failedLoads = new Set<string>();
    driver.on((event) => {
      // Its own records: traced under its label, never checked as the player data's.
      const line = world.trace.on && eventLine(world, event);
      const key = 'key' in event ? event.key : undefined;
      if (line) world.trace.add(world.now(), line, side.label, key);
      checkApart(monitor, side, event, failedLoads);
    });
  }
  monitor.count(`driver.${plan.kind}`);
}

/**
 * drivers-apart: a driver of another name, or over another backend, owns records nobody else
 * loads; sharing a server (its handoff, its jobId, the process) with the player data's driver
 * must not reach them. Its loads never find a lock but their own (`failedLoads`: the keys
 * whose load failed here, whose take may have landed late), and it never loses one.
 */
function checkApart(
  monitor: Monitor,
  side: SimServer,
  event: DataDriverEvent,
  failedLoads: Set<string>,
) {
  const report = (what: string) =>
    monitor.report({
      invariant: Invariant.DriversApart,
      server: side.label,
      message: `${side.label} (${side.side?.kind}) ${what}`,
    });
  switch (event.type) {
    case 'load.waiting':
      if (event.reason === 'locked') report(`found ${event.key} locked: its records are its own`);
      return;
    case 'load.loaded': {
      // Adopted: its own profile, retained when a stalled server's release failed. Orphaned:
      // its own lock, from a load of that key that failed here while its take was in flight
      // (the take landed late and its release has not yet).
      const own =
        event.reason === 'adopted' || (event.reason === 'orphaned' && failedLoads.has(event.key));
      if (event.reason !== 'new' && event.reason !== 'unlocked' && !own) {
        report(`loaded ${event.key} ${event.reason}: its records are its own`);
      }
      return;
    }
    case 'load.failed':
      failedLoads.add(event.key);
      // A stalled server's load may time out; only a lock it does not own is a breach.
      if (event.error.code === ErrorCode.Locked) report(`found ${event.key} locked`);
      return;
    case 'lock.lost':
      report(`lost the lock of ${event.key}: its records are its own`);
      return;
    default:
      return;
  }
}

/** Every driver of `server`: its own and its second ones. */
export function driversOf(world: World, server: SimServer): SimServer[] {
  return [server, ...world.sidesOf(server)];
}

/**
 * The workload's `side` step: a second driver on a live server loads a player's key (an older
 * copy: the player data itself, often a key its server's own driver holds; the others: their
 * own record of that key), adds a reward, holds it a while and releases it.
 */
export function sideStep(world: World): void {
  const random = world.random.workload;
  const sides = world.sides.filter((side) => side.live);
  if (sides.length === 0) return;
  const side = random.pick(sides);
  const host = side.side?.on;
  const held = world.players.filter((player) => host?.profile(player.id));
  const older = side.side?.kind === 'older-copy';
  const candidates =
    older && held.length > 0 && random.chance(0.5)
      ? held
      : world.players.filter((player) => !side.test.driver.profile(player.id));
  if (candidates.length === 0) return;
  const key = random.pick(candidates).id;
  if (older && world.players.find((player) => player.id === key)?.trading) return;
  const holdMs = random.int(0, 8000);
  world.note(`${side.label} loads ${key} for ${holdMs} ms`, side.label, key);
  loadAndHold(world, side, key, holdMs);
}

/** The keys each second driver is loading, holding or releasing: it loads none of them again. */
const busy = new WeakMap<SimServer, Set<string>>();

/**
 * `side` loads `key` (tried again every RETRY_MS while it is locked, `retries` times), adds a
 * coin of reward, and releases the profile (saving it) `holdMs` later. Nothing when the driver
 * is still busy with that key: a load that met its own release in progress would be refused.
 */
export function loadAndHold(
  world: World,
  side: SimServer,
  key: string,
  holdMs: number,
  retries = 0,
): void {
  const keys = busy.get(side) ?? new Set<string>();
  busy.set(side, keys);
  if (keys.has(key)) {
    world.note(`${side.label} is still busy with ${key}`, side.label, key);
    return;
  }
  keys.add(key);
  const free = () => void keys.delete(key);
  const attempt = (left: number) => {
    if (!side.live) return;
    side.test.driver.load(key).then(
      (profile) => {
        earn(profile.data as SimData, 1);
        world.clock.schedule(holdMs, () => {
          if (!side.live) return;
          // A failed release is reported as profile.release-failed (the profile is retained).
          profile.release().then(free, free);
        });
      },
      (error: unknown) => {
        // Reported as load.failed.
        if (left === 0 || !DataDriverError.is(error, ErrorCode.Locked)) free();
        else world.clock.schedule(RETRY_MS, () => attempt(left - 1));
      },
    );
  };
  attempt(retries);
}

/** How often an older copy's load is tried again while the key is locked (ms). */
const RETRY_MS = 200;
