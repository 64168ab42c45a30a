/**
 * The chain of calls, flights and timers a wait actually waited on, walked back from its end
 * through the ledger, and the slack a real-time bound gets from it. Only that chain counts:
 * another server's calls, a request to a crashed server, the waiting server's own attempts
 * while it sat on a request repeat are all off it, so they lend the bound nothing.
 */
import type { LedgerEntry, LedgerKind, Span, TimeLedger } from './ledger.js';

/** A wait of one server: the load (or other call) of `server` from `from` to `to`. */
export interface Wait extends Span {
  readonly server: string;
  /**
   * The ledger's order of the event that ended the wait, where known: an entry that ended in
   * its millisecond after it (a second reply landing just after the load) is not a cause.
   */
  readonly endOrder?: number | undefined;
}

/**
 * What each call costs in the schedule `exactMs` is computed on (unscaled ms; the in-memory
 * backend's latencies). A real call replaces it: the bound gets the real time and gives back
 * this, scaled, so the rules' bound is not spent twice on one call.
 */
export const MODEL_LATENCY_MS: Readonly<Record<LedgerKind, number>> = Object.freeze({
  store: 100,
  presence: 10,
  message: 20,
  subscribe: 0,
  timer: 0,
});

/**
 * The most of a path's time on no entry (the servers' own work between calls, a time slice
 * lost in it) that counts as slack, in unscaled ms: 0.4 of the shortest timer the rules have (the
 * first 0.5 s park), so an extra park never fits in it at any scale.
 */
export const OWN_WORK_MS = 200;

/**
 * The most measured event-loop lag in a path's own-work gaps that counts as slack, in unscaled ms
 * (see `LoopLag`): with own work's 200, the gaps' slack stays below one beat (3000), so a wait
 * that missed a beat still fails, and a timer's scheduled delay is never slack.
 */
export const LOOP_LAG_MS = 2_000;

/** One step of a wait's path: an entry, cut to the part of the wait it covered. */
export interface PathStep {
  readonly entry: LedgerEntry;
  readonly from: number;
  readonly to: number;
}

export interface CriticalPath {
  /** The steps in time order. */
  readonly steps: readonly PathStep[];
  /** The stretches between steps: no call, flight or timer of the path ran. */
  readonly ownWork: readonly Span[];
  /** Where the wait ended (the walk's start). */
  readonly end: number;
}

/** The servers a step of `server`'s path can follow: its own, and the scenario's passes. */
function isCandidate(entry: LedgerEntry, server: string, used: ReadonlySet<LedgerEntry>): boolean {
  return (entry.server === server || entry.server === 'scenario') && !used.has(entry);
}

/** Where the step before `entry` must have ended: its start, or when a timer was armed. */
function causeOf(entry: LedgerEntry): number {
  return entry.kind === 'timer' ? (entry.armedAt ?? entry.from) : entry.from;
}

/**
 * Whether `entry` ended before the step that began at `order` in the ledger's order (a step's
 * cause must have): in the same millisecond, a request repeat that fired just after a load's
 * call began is not what that call waited on. Without orders, the times decide alone.
 */
export function endedBefore(entry: LedgerEntry, order: number | undefined): boolean {
  if (order === undefined) return true;
  return entry.endOrder !== undefined && entry.endOrder < order;
}

/**
 * Of two entries, the one that ended later, by the ledger's order where both have one (finer
 * than a millisecond); of two that ended at once by the clock (a timer and the instant read it
 * woke, two timers due together), the one that began later, so the walk goes back one step at
 * a time rather than jumping past the steps between.
 */
export function later(a: LedgerEntry, b: LedgerEntry): LedgerEntry {
  if (a.endOrder !== undefined && b.endOrder !== undefined) return b.endOrder > a.endOrder ? b : a;
  if (a.to !== b.to) return a.to > b.to ? a : b;
  return causeOf(b) > causeOf(a) ? b : a;
}

/** Where a walk starts: at `at` on `server`'s entries, each cause ended before `order`. */
interface WalkStart {
  readonly at: number;
  readonly server: string;
  readonly order?: number | undefined;
}

/**
 * The steps (latest first) and own work found walking back from `start` down to `from`, taking
 * no entry in `used` (and adding each it takes).
 */
export function walkBack(
  entries: readonly LedgerEntry[],
  from: number,
  start: WalkStart,
  used: Set<LedgerEntry>,
): { steps: PathStep[]; ownWork: Span[] } {
  const steps: PathStep[] = [];
  const ownWork: Span[] = [];
  let { at, server, order } = start;
  while (at > from) {
    let cause: LedgerEntry | undefined;
    for (const entry of entries) {
      if (entry.to > at || !isCandidate(entry, server, used) || !endedBefore(entry, order)) {
        continue;
      }
      cause = cause === undefined ? entry : later(cause, entry);
    }
    if (cause === undefined || cause.to <= from) {
      ownWork.push({ from, to: at });
      break;
    }
    used.add(cause);
    if (at > cause.to) ownWork.push({ from: cause.to, to: at });
    steps.push({ entry: cause, from: Math.max(cause.from, from), to: cause.to });
    at = Math.max(from, causeOf(cause));
    order = cause.startOrder;
    if (cause.kind === 'message' && cause.publisher !== undefined) server = cause.publisher;
  }
  return { steps, ownWork };
}

/** The walk's latest-first pieces, in time order, as one path ending at `end`. */
export function joinedPath(end: number, ...pieces: ReturnType<typeof walkBack>[]): CriticalPath {
  return {
    steps: pieces.flatMap((piece) => piece.steps).reverse(),
    ownWork: pieces.flatMap((piece) => piece.ownWork).reverse(),
    end,
  };
}

/**
 * Walks back from the end of `wait`: what the server did last ended latest before now; before
 * a call, what ended latest before it started; before a delivered message, the publisher's
 * latest entry before the publish; before a timer, what ended before it was armed. Stops at
 * the start of the wait.
 */
export function criticalPath(ledger: TimeLedger, wait: Wait): CriticalPath {
  const walk = walkBack(
    ledger.during(wait),
    wait.from,
    { at: wait.to, server: wait.server, order: wait.endOrder },
    new Set(),
  );
  return joinedPath(wait.to, walk);
}

export interface PathSlack {
  /** Added to the scaled upper bound (ms); may be negative where calls beat the model. */
  readonly slackMs: number;
  /** The path's unscaled time: its calls, flights and timers' lateness (ms). */
  readonly unscaledMs: number;
  /** What the model gives those steps, scaled (ms): taken back. */
  readonly modelMs: number;
  /** The path's own work counted (ms), at most `OWN_WORK_MS` scaled; lag left out. */
  readonly ownWorkMs: number;
  /** Measured event-loop lag in the own-work gaps (ms), at most `LOOP_LAG_MS` scaled. */
  readonly loopLagMs: number;
  /** The timers on the path, their delays in ms (scaled timers: never slack). */
  readonly timerDelaysMs: readonly number[];
  readonly steps: readonly PathStep[];
}

/** The time `a` and `b` share (ms). */
function overlap(a: Span, b: Span): number {
  return Math.max(0, Math.min(a.to, b.to) - Math.max(a.from, b.from));
}

/** The part of `span` outside `fixed` (ms). */
function outside(span: Span, fixed: Span | undefined): number {
  const length = Math.max(0, span.to - span.from);
  return fixed ? length - overlap(span, fixed) : length;
}

/** The pieces of `span` outside `fixed`. */
function piecesOutside(span: Span, fixed: Span | undefined): Span[] {
  if (!fixed || overlap(span, fixed) === 0) return [span];
  const before = { from: span.from, to: Math.min(span.to, fixed.from) };
  const after = { from: Math.max(span.from, fixed.to), to: span.to };
  return [before, after].filter((piece) => piece.to > piece.from);
}

/** The time of `gaps` outside `fixed` that the (disjoint) `lag` spans cover (ms). */
function lagIn(gaps: readonly Span[], lag: readonly Span[], fixed: Span | undefined): number {
  const pieces = gaps.flatMap((gap) => piecesOutside(gap, fixed));
  return sum(pieces.flatMap((piece) => lag.map((span) => overlap(piece, span))));
}

/**
 * The share of a step's model time that the bound counted, and so takes back: none for a step
 * that began inside `fixed` (the model ran it inside that one timer, so the bound never
 * counted it; what it spent past the timer is all slack), nor for an instant step at the very
 * end of the wait (in the same millisecond as the event that ended it, it may have come after
 * that event: the next load's call after a read); else the share of it in the wait.
 */
function modelShare(step: PathStep, fixed: Span | undefined, end: number): number {
  if (fixed && step.from >= fixed.from && step.from < fixed.to) return 0;
  const length = step.entry.to - step.entry.from;
  if (length <= 0) return step.from < end ? 1 : 0;
  return outside(step, fixed) / length;
}

/**
 * The slack of `path` at `scale`: its steps' unscaled time less their model time, its own
 * work (capped), and the measured event-loop `lag` in its own-work gaps (capped). Nothing
 * inside `fixed` counts: a stretch of the wait that is one timer from a known time, whatever
 * the calls in it cost (a join's deadline, a presence TTL from the last beat or from the
 * reader's first sighting, a beat between two reads); and
 * no model time is taken off for a step that began inside it (see `modelShare`).
 */
export function pathSlack(
  path: CriticalPath,
  scale: number,
  fixed?: Span,
  lag: readonly Span[] = [],
): PathSlack {
  let unscaledMs = 0;
  let modelMs = 0;
  const timerDelaysMs: number[] = [];
  for (const step of path.steps) {
    const { entry, from, to } = step;
    if (entry.kind === 'timer' && entry.armedAt !== undefined) {
      timerDelaysMs.push(entry.from - entry.armedAt);
    }
    unscaledMs += outside({ from, to }, fixed);
    modelMs += MODEL_LATENCY_MS[entry.kind] * scale * modelShare(step, fixed, path.end);
  }
  const counted = sum(path.ownWork.map((span) => outside(span, fixed)));
  const lagged = lagIn(path.ownWork, lag, fixed);
  const loopLagMs = Math.min(lagged, LOOP_LAG_MS * scale);
  const ownWorkMs = Math.min(counted - lagged, OWN_WORK_MS * scale);
  return {
    slackMs: Math.ceil(unscaledMs - modelMs + ownWorkMs + loopLagMs),
    unscaledMs,
    modelMs,
    ownWorkMs,
    loopLagMs,
    timerDelaysMs,
    steps: path.steps,
  };
}

/** `path 74 ms (store 41 ms in 3, message 8 ms in 2) - model 34 ms + own work 2 ms of 7` */
export function describePathSlack(slack: PathSlack, path: CriticalPath): string {
  const byKind = new Map<LedgerKind, { ms: number; count: number }>();
  for (const { entry, from, to } of slack.steps) {
    const spent = byKind.get(entry.kind) ?? { ms: 0, count: 0 };
    spent.ms += to - from;
    spent.count += 1;
    byKind.set(entry.kind, spent);
  }
  const kinds = [...byKind]
    .map(([kind, { ms, count }]) => `${kind} ${Math.round(ms)} ms in ${count}`)
    .join(', ');
  const timers =
    slack.timerDelaysMs.length === 0 ? '' : `; timers ${slack.timerDelaysMs.join('+')} ms`;
  return (
    `path ${Math.round(slack.unscaledMs)} ms (${kinds || 'nothing recorded'}${timers})` +
    ` - model ${Math.round(slack.modelMs)} ms + own work ${Math.round(slack.ownWorkMs)} ms` +
    ` of ${Math.round(sum(path.ownWork.map((span) => span.to - span.from)))}` +
    (slack.loopLagMs > 0 ? ` + loop lag ${Math.round(slack.loopLagMs)} ms` : '')
  );
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
