import type { DataDriverEvent } from '@datadriver/core';
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import type { Wait } from '../cluster/critical-path.js';
import type { Span } from '../cluster/ledger.js';
import type { TestServer } from '../cluster/server.js';
import { describeSlack, traceOf } from './wait-report.js';

/** One multi-server case, written once against the ports and run on every backend. */
export interface Scenario {
  readonly name: string;
  run(cluster: Cluster): Promise<void>;
}

/** The messages of the kicks `server`'s host made, in order. */
export function kicksOf(server: TestServer): string[] {
  return server.host.kicks.map((kick) => kick.message);
}

export type LoadOutcome =
  | Extract<DataDriverEvent, { type: 'load.loaded' }>
  | Extract<DataDriverEvent, { type: 'load.failed' }>;

/**
 * Lets time pass until server `label` finishes a load of `key` that started after event
 * number `from`, and returns how it ended (its `waitedMs` is the wait the player saw). Fails
 * after `limitSeconds` (unscaled; the cluster scales them).
 */
export async function settled(
  cluster: Cluster,
  label: string,
  key: string,
  from: number,
  limitSeconds = 60,
): Promise<LoadOutcome> {
  let outcome: LoadOutcome | undefined;
  await cluster.until(
    () => {
      outcome = cluster.events
        .slice(from)
        .find(
          (event): event is LoadOutcome & { server: string; order: number } =>
            event.server === label &&
            (event.type === 'load.loaded' || event.type === 'load.failed') &&
            event.key === key,
        );
      return outcome !== undefined;
    },
    cluster.ms(limitSeconds),
    `the load of ${key} on ${label}`,
  );
  return outcome!;
}

/**
 * What a wait is held to. Every figure but `fixed` is in the lock handoff rules' milliseconds,
 * unscaled: the cluster scales them to the backend (`ClusterBackend.scale`).
 */
export interface WaitBounds {
  /**
   * The wait on the virtual clock, to the millisecond (with the in-memory latencies); needed
   * there, and printed beside a real wait, scaled.
   */
  readonly exactMs?: number;
  /**
   * What the rules promise at most, in their milliseconds (unscaled; the cluster scales them).
   * A wait timed from an earlier start than the rules' may have a lower bound alone.
   */
  readonly atMostMs?: number;
  /** What the rules promise at least, in their milliseconds (unscaled; the cluster scales them). */
  readonly atLeastMs?: number;
  /**
   * The wait ends at a deadline this many milliseconds after its start (unscaled; the cluster
   * scales them), a join failing closed after `lockWaitSeconds`: the deadline is one timer, so
   * only what came after it gets slack.
   */
  readonly deadlineMs?: number;
  /**
   * A stretch of the wait (cluster ms) that is one timer from a known time, whatever the calls
   * in it cost: a presence TTL from the last beat, or from the reader's first sighting. None
   * of it gets slack.
   */
  readonly fixed?: Span;
}

/** The span a load waited: from its start to its outcome, on the server that loaded. */
export function waitOf(
  outcome: LoadOutcome & { readonly server?: string; readonly order?: number },
): Span & {
  readonly server?: string;
  readonly endOrder?: number;
} {
  return {
    from: outcome.time - outcome.waitedMs,
    to: outcome.time,
    ...(outcome.server === undefined ? {} : { server: outcome.server }),
    ...(outcome.order === undefined ? {} : { endOrder: outcome.order }),
  };
}

/**
 * `span` as a wait of one server: its own `server`, else the server whose load ended at its
 * end (a span from a crash to a takeover ends at the takeover's load).
 */
export function waitingServer(
  cluster: Cluster,
  span: Span & { readonly server?: string; readonly endOrder?: number },
): Wait {
  if (span.server !== undefined) return { ...span, server: span.server };
  const ended = cluster.events.findLast(
    (event) =>
      (event.type === 'load.loaded' || event.type === 'load.failed') && event.time === span.to,
  );
  if (!ended) throw new Error(`no load ended at ${span.to}: name the waiting server`);
  return { ...span, server: ended.server, endOrder: span.endOrder ?? ended.order };
}

/**
 * The bounds a real-time wait is held to (ms): the rules', scaled, the upper one plus
 * `slackMs` (see `Cluster.slackFor`) when it is positive: never tighter than the rules' bound.
 */
export function realBounds(
  cluster: Cluster,
  bounds: WaitBounds,
  slackMs: number,
): { min?: number; max?: number } {
  const { scale } = cluster.backend;
  // Real waits are whole milliseconds; round the scaled bounds so 13_000 * 0.07 is 910, not
  // 910.0000000000001. The 5 ms below allows for the event times' whole milliseconds.
  return {
    ...(bounds.atMostMs === undefined
      ? {}
      : // Never tighter than the rules' own bound: a path faster than the model leaves no
        // room below it to take away.
        { max: Math.ceil(bounds.atMostMs * scale) + Math.max(0, slackMs) }),
    ...(bounds.atLeastMs === undefined ? {} : { min: Math.floor(bounds.atLeastMs * scale) - 5 }),
  };
}

/**
 * Exact on the virtual clock. On a real backend within the rules' bounds scaled, the upper
 * one plus what this wait's own path spent unscaled (its round trips, the flights it waited
 * on, its timers' lateness: `Cluster.slackFor`) less the model's time for those steps,
 * scaled. The scaled timers on the path must then fit the rules' bound as on the virtual
 * clock: a wait on a scaled timer too many (a request repeat, a missed beat, an extra park)
 * fails, however slow the backend. A failure prints those figures and the wait's events and
 * calls.
 */
export function expectWait(
  cluster: Cluster,
  span: Span & { readonly server?: string },
  bounds: WaitBounds,
): void {
  const wait = cluster.time.exact ? { ...span, server: '-' } : waitingServer(cluster, span);
  const waitedMs = wait.to - wait.from;
  if (cluster.time.exact) {
    const { exactMs } = bounds;
    if (exactMs === undefined) throw new Error('a wait on the virtual clock needs its exactMs');
    expect(waitedMs).toBe(exactMs);
    if (bounds.atMostMs !== undefined) expect(exactMs).toBeLessThanOrEqual(bounds.atMostMs);
    if (bounds.atLeastMs !== undefined) expect(exactMs).toBeGreaterThanOrEqual(bounds.atLeastMs);
    return;
  }
  const fixed =
    bounds.deadlineMs === undefined
      ? bounds.fixed
      : { from: wait.from, to: wait.from + cluster.ms(bounds.deadlineMs / 1000) };
  const { slackMs } = cluster.slackFor(wait, fixed);
  const { min, max } = realBounds(cluster, bounds, slackMs);
  const scaled = (ms: number) => Math.round(ms * cluster.backend.scale);
  const title = cluster.title ?? expect.getState().currentTestName;
  const exact = bounds.exactMs === undefined ? '' : `exact ${scaled(bounds.exactMs)}; `;
  const line = `${title}: waited ${waitedMs} ms, bounds ${min ?? 0} to ${max ?? '-'} ms (${exact}${describeSlack(cluster, wait, fixed)})`;
  const failed = (max !== undefined && waitedMs > max) || (min !== undefined && waitedMs < min);
  // A failure's message carries the wait's trace; DD_TRACE_WAITS=1 prints every wait's.
  const traceAll = process.env.DD_TRACE_WAITS === '1';
  const explained = failed || traceAll ? `${line}\n${traceOf(cluster, wait)}` : line;
  console.info(traceAll ? explained : line);
  if (max !== undefined) expect(waitedMs, explained).toBeLessThanOrEqual(max);
  if (min !== undefined) expect(waitedMs, explained).toBeGreaterThanOrEqual(min);
}

/**
 * Fails unless `outcome` matches `expected`; the message then carries the wait's figures and
 * trace (a join that failed closed on a loaded machine says how late it ran).
 */
export function expectOutcome(
  cluster: Cluster,
  outcome: LoadOutcome,
  expected: Partial<Pick<Extract<LoadOutcome, { type: 'load.loaded' }>, 'type' | 'reason'>>,
): void {
  const wait = waitingServer(cluster, waitOf(outcome));
  const matches = Object.entries(expected).every(
    ([field, value]) => (outcome as unknown as Record<string, unknown>)[field] === value,
  );
  const explained = matches
    ? ''
    : `waited ${wait.to - wait.from} ms (${describeSlack(cluster, wait)})\n${traceOf(cluster, wait)}`;
  expect(outcome, explained).toMatchObject(expected);
}

/** Index of the next event: pass it to `settled` to find what happens after now. */
export function mark(cluster: Cluster): number {
  return cluster.events.length;
}
