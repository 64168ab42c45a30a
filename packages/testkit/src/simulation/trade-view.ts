/**
 * trade-atomicity and ledger over a set of player datas: each trade in both participants or
 * in neither, as reported, and every copy whole. The datas are either the settled view of
 * the store (after each step) or the profiles the final loads returned.
 */
import { isPlainObject, type JsonObject } from '@datadriver/core/ports';
import type { ProfileRecord } from '@datadriver/core/rules';
import { Invariant, type ViolationSink } from './invariants.js';
import { ledgerError, tradesOf } from './player-data.js';
import type { World } from './world.js';

/**
 * The data the next load of `key` would find, written from the seed's rule rather than
 * core's code: a record whose trade marker was not saved over (its version is the
 * marker's) reads as its journal decides, committed applying the journal's entry; any other
 * record reads as stored.
 */
export function settledData(world: World, key: string): JsonObject | undefined {
  return settledRecordData(world, key, world.record(key));
}

/** `settledData` of a given record of `key`, against the journals as stored now. */
export function settledRecordData(
  world: World,
  key: string,
  record: ProfileRecord | undefined,
): JsonObject | undefined {
  if (!record) return undefined;
  const marker = record.meta.trade;
  if (!marker || marker.version !== record.meta.version) return record.data;
  const journal = world.backend.store.peek(marker.journal);
  const entries = journal?.entries;
  if (journal?.state !== 'committed' || !isPlainObject(entries)) return record.data;
  const entry = entries[key];
  return isPlainObject(entry) ? (entry as JsonObject) : record.data;
}

function count(data: JsonObject | undefined, tradeId: string): number {
  return tradesOf(data).filter((id) => id === tradeId).length;
}

/** Checks every workload trade and every player's data; `where` names the view in messages. */
export function checkTrades(
  world: World,
  sink: ViolationSink,
  dataOf: (key: string) => JsonObject | undefined,
  where: string,
): void {
  const datas = new Map(world.players.map((player) => [player.id, dataOf(player.id)]));
  for (const [key, data] of datas) {
    const broken =
      data &&
      ledgerError(
        key,
        data,
        (id) => world.trades.get(id),
        (id) => world.messages.get(id),
      );
    if (broken) sink.report({ invariant: Invariant.Ledger, key, message: `${where}: ${broken}` });
  }
  for (const trade of world.trades.values()) {
    const inFrom = count(datas.get(trade.from), trade.id);
    const inTo = count(datas.get(trade.to), trade.id);
    const report = (message: string) =>
      sink.report({
        invariant: Invariant.TradeAtomicity,
        key: trade.from,
        message: `${where}: ${message}`,
      });
    if (inFrom !== inTo) {
      const [has, lacks] = inFrom > inTo ? [trade.from, trade.to] : [trade.to, trade.from];
      report(
        `trade ${trade.id} (${trade.from} -> ${trade.to}) is applied to ${has} but not to ${lacks}`,
      );
    } else if (trade.outcome === 'committed' && inFrom === 0) {
      report(`trade ${trade.id} was reported committed but is applied to neither profile`);
    } else if (trade.outcome === 'failed' && inFrom > 0) {
      report(`trade ${trade.id} was reported failed but is applied to both profiles`);
    }
  }
}
