/** The figures a run prints: what happened, counted from its histories. */
import type { HistoryLine } from '../history.js';
import { originOf } from './by-key.js';
import type { JoinOutcome } from './joins.js';
import { percentile } from './percentile.js';

export interface Figures {
  readonly minutes: number;
  readonly hopsSent: number;
  readonly hopsToDownServer: number;
  readonly joins: number;
  readonly loaded: number;
  /** Failed joins by error code. */
  readonly failed: Readonly<Record<string, number>>;
  readonly interrupted: number;
  /** Locks taken from another server that had not released them, by reason (`stolen`, `stale`...). */
  readonly takeovers: Readonly<Record<string, number>>;
  readonly lostLocks: number;
  readonly lostLocksPerMinute: number;
  readonly acknowledgedSaves: number;
  readonly failedSaves: number;
  readonly joinWaitMs: { readonly p50?: number; readonly p99?: number };
  /** Loaded joins that first found another server's lock: a hand-over or a takeover. */
  readonly handOverMs: { readonly count: number; readonly p50?: number; readonly p99?: number };
  /** Nemesis actions by kind. */
  readonly nemesis: Readonly<Record<string, number>>;
}

export function figuresOf(lines: readonly HistoryLine[], joins: readonly JoinOutcome[]): Figures {
  const count = (record: Record<string, number>, name: string) => {
    record[name] = (record[name] ?? 0) + 1;
  };
  const failed: Record<string, number> = {};
  const takeovers: Record<string, number> = {};
  const nemesis: Record<string, number> = {};
  const waited = new Set<string>();
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let hopsSent = 0;
  let hopsToDownServer = 0;
  let lostLocks = 0;
  let acknowledgedSaves = 0;
  let failedSaves = 0;
  for (const line of lines) {
    first = Math.min(first, line.at);
    last = Math.max(last, line.at);
    if (line.kind === 'hop') {
      if (line.sent) hopsSent += 1;
      else hopsToDownServer += 1;
    } else if (line.kind === 'lock-taken' && (line.reason === 'stolen' || line.reason === 'stale'))
      count(takeovers, line.reason);
    else if (line.kind === 'lock-lost') lostLocks += 1;
    else if (line.kind === 'save') acknowledgedSaves += 1;
    else if (line.kind === 'save-failed') failedSaves += 1;
    else if (line.kind === 'nemesis' && line.phase === 'start') count(nemesis, line.action);
    else if (line.kind === 'load-waited') waited.add(`${originOf(line)}/${line.loadId}`);
  }
  const ended = joins.filter((join) => join.ended !== undefined);
  for (const join of ended)
    if (join.ended?.outcome === 'failed') count(failed, join.ended.code ?? '?');
  const loadedWaits = ended.filter((join) => join.ended?.outcome === 'loaded');
  const handOvers = loadedWaits
    .filter((join) => waited.has(`${originOf(join.started)}/${join.started.loadId}`))
    .map((join) => join.waitedMs ?? 0);
  const waits = ended.map((join) => join.waitedMs ?? 0);
  const minutes = Number.isFinite(first) ? Math.max(last - first, 1) / 60_000 : 0;
  return {
    minutes,
    hopsSent,
    hopsToDownServer,
    joins: joins.length,
    loaded: loadedWaits.length,
    failed,
    interrupted: joins.filter((join) => join.interrupted).length,
    takeovers,
    lostLocks,
    lostLocksPerMinute: minutes > 0 ? lostLocks / minutes : 0,
    acknowledgedSaves,
    failedSaves,
    joinWaitMs: { p50: percentile(waits, 50), p99: percentile(waits, 99) },
    handOverMs: {
      count: handOvers.length,
      p50: percentile(handOvers, 50),
      p99: percentile(handOvers, 99),
    },
    nemesis,
  };
}
