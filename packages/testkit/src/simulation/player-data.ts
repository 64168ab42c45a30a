/**
 * A simulated player's data, shaped so that a record proves its own history:
 * - `progress` counts every earn, and only ever grows on the holder, so a stored record whose
 *   progress falls is a rollback;
 * - `earned` sums the coins earned and `trades` lists the trade ids applied, so that
 *   `coins = earned + the trades' deltas` holds in every copy a trade did not tear;
 * - each trade id is unique, so a trade applied twice shows as a repeated id.
 */
import type { JsonObject } from '@datadriver/core';
import type { PlayerData } from '../cluster/server.js';

export interface SimData extends PlayerData {
  earned?: number;
  progress?: number;
  trades?: string[];
}

/** A trade of the workload: `from` gives `amount` coins to `to`. */
export interface TradeTerms {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly amount: number;
}

function numberField(data: JsonObject | SimData | undefined, field: string): number {
  const value = (data as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'number' ? value : 0;
}

export function progressOf(data: JsonObject | SimData | undefined): number {
  return numberField(data, 'progress');
}

export function tradesOf(data: JsonObject | SimData | undefined): readonly string[] {
  const value = (data as Record<string, unknown> | undefined)?.trades;
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/** A player earns `coins`: one more unit of progress. */
export function earn(data: SimData, coins: number): void {
  data.coins += coins;
  data.earned = (data.earned ?? 0) + coins;
  data.progress = (data.progress ?? 0) + 1;
}

/** The trade's change, applied by `driver.trade` to copies of both datas. */
export function applyTrade(terms: TradeTerms, from: SimData, to: SimData): void {
  from.coins -= terms.amount;
  to.coins += terms.amount;
  from.trades = [...(from.trades ?? []), terms.id];
  to.trades = [...(to.trades ?? []), terms.id];
}

/**
 * Why `data` of player `key` is not a consistent copy, or `undefined` when it is: each trade
 * at most once, and the coins equal to what was earned plus what the trades moved.
 */
export function ledgerError(
  key: string,
  data: JsonObject | SimData,
  terms: (tradeId: string) => TradeTerms | undefined,
): string | undefined {
  const ids = tradesOf(data);
  let expected = numberField(data, 'earned');
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return `trade ${id} is applied twice to ${key}`;
    seen.add(id);
    const trade = terms(id);
    if (!trade) return `${key} holds trade ${id}, which the workload never made`;
    if (trade.from === key) expected -= trade.amount;
    else if (trade.to === key) expected += trade.amount;
    else return `${key} holds trade ${id} between ${trade.from} and ${trade.to}`;
  }
  const coins = numberField(data, 'coins');
  if (coins !== expected) {
    return `${key} has ${coins} coins, but earned ${numberField(data, 'earned')} and its trades [${ids.join(', ')}] make ${expected}`;
  }
  return undefined;
}
