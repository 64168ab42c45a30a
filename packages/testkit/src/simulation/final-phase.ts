/**
 * The end of a run: every fault is healed (crashed servers stay down), everyone leaves, and
 * then every player joins again. final-liveness: every trade on a live server is decided and
 * every player loads within the time handoff, presence expiry or age needs to free any lock.
 * The final loads settle every trade marker for real, and their data is judged as a whole:
 * no-rollback against every acknowledged save, ledger and trade-atomicity across all players.
 */
import type { JsonObject } from '@datadriver/core';
import { JOURNAL_DELETE_MAX_MS } from '@datadriver/core/testing';
import { Invariant } from './invariants.js';
import { checkJournalsCleared } from './journal-checks.js';
import { checkMessagesFinal, messagesDrained } from './message-checks.js';
import type { Monitor } from './monitor.js';
import { progressOf } from './player-data.js';
import { checkTrades } from './trade-view.js';
import { connect, syncPlayers } from './workload.js';
import type { World } from './world.js';

export async function finalPhase(world: World, monitor: Monitor): Promise<void> {
  world.note('FINAL PHASE: every fault healed; crashed servers stay down');
  heal(world);
  // Two autosave periods: failed saves and releases are retried, stalled calls drain.
  const settleMs = 2 * world.config.autosaveSeconds * 1000 + 10_000;
  await world.clock.advance(settleMs);
  monitor.afterStep();
  everyoneLeaves(world, monitor);
  await world.clock.advance(settleMs);
  monitor.afterStep();
  checkTradesDecided(world, monitor);
  if (monitor.violations.length > 0) return;
  const loaded = await everyoneRejoins(world, monitor);
  monitor.afterStep();
  checkFinalData(world, monitor, loaded);
  // Settled journals are deleted once both markers are cleared, retried while that fails.
  await world.clock.advance(JOURNAL_SETTLE_MS);
  monitor.afterStep();
  checkJournalsCleared(world, monitor);
  if (!world.config.messages || monitor.violations.length > 0) return;
  // Deliveries the final loads finished, and the passes they nudge (or, on a holder without
  // handoff, the next autosave), are done within an autosave and 10 s; the run stops waiting
  // as soon as every inbox is empty and every debited transfer applied.
  const drainedBy =
    world.now() + Math.max(0, world.config.autosaveSeconds * 1000 + 10_000 - JOURNAL_SETTLE_MS);
  while (world.now() < drainedBy && !messagesDrained(world, monitor.messages)) {
    await world.clock.advance(Math.min(1000, drainedBy - world.now()));
  }
  monitor.afterStep();
  checkMessagesFinal(world, monitor, monitor.messages);
}

/**
 * Time for the last saves to clear their markers and the journals' deletions to land: core
 * retries a failed deletion at most JOURNAL_DELETE_MAX_MS apart, and every fault is healed by
 * now; 5 s more for the saves and the deletion itself.
 */
const JOURNAL_SETTLE_MS = JOURNAL_DELETE_MAX_MS + 5_000;

function heal(world: World): void {
  world.healed = true;
  for (const server of [...world.liveServers(), ...world.sides.filter((side) => side.live)]) {
    server.test.store.faults.clear();
    server.test.presence.faults.clear();
    server.test.messenger.faults.clear();
    for (const disturbance of server.disturbances) {
      disturbance.to = Math.min(disturbance.to, world.now());
    }
  }
  world.senders.live?.store.faults.clear();
  // A holder armed to crash after its next apply or debit (messages.ts) is disarmed too.
  world.armedCrash = undefined;
}

function everyoneLeaves(world: World, monitor: Monitor): void {
  syncPlayers(world);
  for (const server of world.liveServers()) {
    for (const player of world.players) {
      if (!server.test.host.has(player.id)) continue;
      world.note(`${player.id} leaves`, server.label, player.id);
      monitor.tracker.removed(server.label, player.id, world.now());
      server.test.leave(player.id);
    }
  }
  for (const player of world.players) player.current = undefined;
}

function checkTradesDecided(world: World, monitor: Monitor): void {
  for (const trade of world.trades.values()) {
    if (trade.outcome !== 'pending' || !trade.server.live) continue;
    monitor.report({
      invariant: Invariant.FinalLiveness,
      key: trade.from,
      server: trade.server.label,
      message: `trade ${trade.id} on ${trade.server.label} was never decided, though every fault was healed`,
    });
  }
}

/** Joins every player again until each has loaded, or the liveness deadline passes. */
async function everyoneRejoins(world: World, monitor: Monitor): Promise<Map<string, JsonObject>> {
  const { lockTtlSeconds, lockSkewSeconds, lockWaitSeconds } = world.config;
  const limitMs = (lockTtlSeconds + 2 * lockSkewSeconds + 3 * lockWaitSeconds) * 1000 + 30_000;
  const deadline = world.now() + limitMs;
  const loaded = new Map<string, JsonObject>();
  while (loaded.size < world.players.length && world.now() < deadline) {
    syncPlayers(world);
    for (const player of world.players) {
      if (loaded.has(player.id) || player.current) continue;
      connect(world, monitor, player, world.random.workload.pick(world.liveServers()), 'joins');
    }
    await world.clock.advance(1000);
    for (const player of world.players) {
      const profile = player.current?.profile(player.id);
      if (profile) loaded.set(player.id, profile.data as unknown as JsonObject);
    }
  }
  for (const player of world.players) {
    if (loaded.has(player.id)) continue;
    monitor.report({
      invariant: Invariant.FinalLiveness,
      key: player.id,
      message: `${player.id} could not load within ${limitMs} ms after every fault was healed`,
    });
  }
  return loaded;
}

function checkFinalData(world: World, monitor: Monitor, loaded: Map<string, JsonObject>): void {
  for (const [key, data] of loaded) {
    const acked = monitor.tracker.ackedProgress(key);
    if (progressOf(data) >= acked) continue;
    monitor.report({
      invariant: Invariant.NoRollback,
      key,
      message: `${key} loaded at progress ${progressOf(data)} in the end, below the acknowledged ${acked}`,
    });
  }
  checkTrades(world, monitor, (key) => loaded.get(key), 'after the final loads');
}
