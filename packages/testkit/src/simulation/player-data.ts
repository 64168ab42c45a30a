/**
 * A simulated player's data, shaped so that a record proves its own history:
 * - `progress` counts every earn, and only ever grows on the holder, so a stored record whose
 *   progress falls is a rollback;
 * - `earned` sums the coins earned and `trades` lists the trade ids applied, so that
 *   `coins = earned + the trades' deltas` holds in every copy a trade did not tear;
 * - each trade id is unique, so a trade applied twice shows as a repeated id;
 * - `received` lists the messages applied (a grant from outside, a transfer from a player) and
 *   `sent` the transfers this player made, each by its unique id, so that `coins = earned +
 *   the trades' deltas + what was received - what was sent` too, and a message applied twice
 *   shows as a repeated id.
 */
import type { JsonObject } from '@datadriver/core';
import type { PlayerData } from '../cluster/server.js';

export interface SimData extends PlayerData {
  earned?: number;
  progress?: number;
  trades?: string[];
  /** The ids of the messages applied to this profile (messages.ts's `applyMessage`). */
  received?: string[];
  /** The ids of the transfers this player sent (`profile.send`), debited in the same write. */
  sent?: string[];
}

/** A message of the workload, as the ledger needs it: who gets how many coins, from whom. */
export interface MessageTerms {
  readonly id: string;
  readonly to: string;
  /** The sending player of a transfer; absent for a grant sent from outside. */
  readonly from?: string;
  readonly amount: number;
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
  return idsOf(data, 'trades');
}

/** The ids a copy lists under `field` (`trades`, `received`, `sent`). */
export function idsOf(
  data: JsonObject | SimData | undefined,
  field: 'trades' | 'received' | 'sent',
): readonly string[] {
  const value = (data as Record<string, unknown> | undefined)?.[field];
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
 * at most once, and the coins equal to what was earned plus what the trades
 * moved plus what the messages received brought minus what the transfers sent took.
 */
export function ledgerError(
  key: string,
  data: JsonObject | SimData,
  terms: (tradeId: string) => TradeTerms | undefined,
  message: (id: string) => MessageTerms | undefined = () => undefined,
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
  for (const field of ['received', 'sent'] as const) {
    // Each counted as often as listed: a message applied twice is message-once's to report.
    for (const id of idsOf(data, field)) {
      const terms = message(id);
      const party = field === 'received' ? terms?.to : terms?.from;
      if (!terms || party !== key) {
        return `${key} lists message ${id} as ${field}, which the workload never ${field === 'received' ? 'sent it' : 'had it send'}`;
      }
      expected += field === 'received' ? terms.amount : -terms.amount;
    }
  }
  const coins = numberField(data, 'coins');
  if (coins !== expected) {
    const moved = ['received', 'sent'].map(
      (field) => `${field} [${idsOf(data, field as 'sent').join(', ')}]`,
    );
    return `${key} has ${coins} coins, but earned ${numberField(data, 'earned')} and its trades [${ids.join(', ')}], ${moved.join(', ')} make ${expected}`;
  }
  return undefined;
}
