/**
 * Checks run after every step, once the clock has moved: loads still waiting past their
 * bound (bounded-wait), failed loads that kicked nobody (kick-on-failure), and the settled
 * view of every trade (trade-atomicity, ledger).
 */
import type { CheckContext } from './commit-checks.js';
import { Invariant } from './invariants.js';
import { checkTrades, settledData } from './trade-view.js';
import { waitBoundMs } from './wait-bound.js';

export function checkStep(context: CheckContext): void {
  const { world } = context;
  for (const server of world.servers) server.settleDisturbances(world.now());
  checkPendingLoads(context);
  checkKicks(context);
  checkTrades(world, context.sink, (key) => settledData(world, key), 'in the store');
}

/** A crashed server's loads never end; every other load must end within its bound. */
function checkPendingLoads({ world, tracker, sink }: CheckContext): void {
  const now = world.now();
  for (const load of tracker.pendingLoads()) {
    const server = world.serverByLabel(load.server);
    if (!server || server.status === 'crashed') continue;
    const bound = waitBoundMs(world, server, load, now);
    if (now - load.startedAt <= bound) continue;
    sink.report({
      invariant: Invariant.BoundedWait,
      key: load.key,
      server: load.server,
      message: `the load of ${load.key} on ${load.server} has waited ${now - load.startedAt} ms, over its bound of ${bound} ms`,
    });
  }
}

/** A failed load of a player who is still there ends in a kick. */
function checkKicks({ world, tracker, sink }: CheckContext): void {
  for (const failed of tracker.failedLoads) {
    const server = world.serverByLabel(failed.server);
    const kick = tracker.lastKick(failed.server, failed.key);
    const removal = tracker.lastRemoval(failed.server, failed.key);
    if (!server?.live) continue;
    if (kick !== undefined && kick >= failed.at) continue;
    if (removal !== undefined && removal >= failed.startedAt) continue; // they left meanwhile
    sink.report({
      invariant: Invariant.KickOnFailure,
      key: failed.key,
      server: failed.server,
      message: `the load of ${failed.key} on ${failed.server} failed (${failed.message}) and the player was not kicked`,
    });
  }
  tracker.failedLoads = [];
}
