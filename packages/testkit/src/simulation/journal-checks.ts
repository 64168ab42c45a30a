/**
 * journals-cleared, at the very end of a run: a trade journal that no record's marker points
 * to any more holds no player data (see the invariant for what it allows).
 */
import { isPlainObject } from '@datadriver/core/ports';
import { Invariant } from './invariants.js';
import type { Monitor } from './monitor.js';
import type { World } from './world.js';

export function checkJournalsCleared(world: World, monitor: Monitor): void {
  const marked = new Set(
    world.players.map((player) => world.record(player.id)?.meta.trade?.journal),
  );
  for (const storeKey of world.backend.store.keys()) {
    const id = world.tradeIdOf(storeKey);
    if (id === undefined || marked.has(storeKey)) continue;
    const journal = world.backend.store.peek(storeKey);
    const entries = isPlainObject(journal?.entries) ? Object.keys(journal.entries) : [];
    if (entries.length === 0 || excused(world, monitor, id, entries)) continue;
    monitor.report({
      invariant: Invariant.JournalsCleared,
      key: entries[0],
      message: `the journal of trade ${id} (${String(journal?.state)}) still holds the data of ${entries.join(' and ')} after the trade was settled`,
    });
  }
}

/** A trade id is drawn by its server, as "C4" (after the namespace): its label, then its count. */
function excused(world: World, monitor: Monitor, id: string, keys: readonly string[]): boolean {
  const drawn = world.trace.clean(id);
  const server = world.servers.find((candidate) => drawn.startsWith(candidate.label));
  if (!server?.live) return true;
  return keys.some((key) => monitor.tracker.everLostLock(server.label, key));
}
