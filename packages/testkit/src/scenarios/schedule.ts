/**
 * The handoff's schedule, checked from events and the wait's path where the rules fix it: the
 * parks of a join that fails closed, and the two empty presence reads a beat apart.
 */
import { DEFAULT_TIMINGS } from '@datadriver/core';
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import type { Wait } from '../cluster/critical-path.js';
import type { LedgerEntry } from '../cluster/ledger.js';
import { scaledTimings } from '../cluster/time.js';
import { expectWait } from './scenario.js';
import { traceOf } from './wait-report.js';

/**
 * A join that failed closed parked 0.5 s doubling to 2 s, each park in full but the last: that
 * one is cut to end at the deadline, `deadlineMs` (unscaled; the cluster scales them) after the
 * wait began (between the join and its first store call), or is full and the deadline passed
 * during the attempt after it. Its attempts are exactly one more than those parks, whatever
 * each load cost. Exact on the virtual clock, whose ledger holds the model's calls (see
 * `Cluster.server`).
 */
export function expectParks(cluster: Cluster, wait: Wait, deadlineMs: number): void {
  const timings = scaledTimings(cluster.backend.scale);
  // Exact on the virtual clock; on real time a timer's whole milliseconds give or take one.
  const tick = cluster.time.exact ? 0 : 1;
  const path = cluster.pathOf(wait);
  const parks = path.steps.filter(
    (step) => step.entry.kind === 'timer' && step.entry.server === wait.server,
  );
  const delays = parks.map(({ entry }) => entry.from - (entry.armedAt ?? entry.from));
  const explained = `parks ${delays.join(', ')} ms\n${traceOf(cluster, wait)}`;
  expect(parks.length, explained).toBeGreaterThan(1);
  let park = timings.parkMinSeconds * 1000;
  for (const delay of delays.slice(0, -1)) {
    expect(Math.abs(delay - park), explained).toBeLessThanOrEqual(tick);
    park = Math.min(park * 2, timings.parkMaxSeconds * 1000);
  }
  const last = parks.at(-1)!.entry;
  const lastDelay = last.from - (last.armedAt ?? last.from);
  // Core's deadline runs from the start of its cross-server wait, which comes after the load
  // started and before the wait's first store call: on a busy loop those are milliseconds apart.
  // The load's start is read off its end event (time less `waitedMs`), and that event can be
  // stamped milliseconds after core measured it: then the first call comes first (CI: 4 ms).
  // Core's start lies between the two, whichever order they landed in.
  const waitMs = cluster.ms(deadlineMs / 1000);
  const firstCall =
    path.steps.find((step) => step.entry.kind === 'store' && step.entry.server === wait.server)
      ?.entry.from ?? wait.from;
  const earliest = Math.min(wait.from, firstCall) + waitMs;
  const latest = Math.max(wait.from, firstCall) + waitMs;
  // Core cuts the last park from its own clock, read after the call before it settled and
  // before the park was armed; the ledger stamps the arming. On a busy loop those are
  // milliseconds apart (CI: the call settled at 1491, the 9 ms park was armed at 1494 and due
  // at 1503 for a deadline at 1500), and the cut park is due that much after the deadline.
  // The virtual clock arms it the instant the call settles: no lag allowed there, still exact.
  const beforeLast = path.steps[path.steps.indexOf(parks.at(-1)!) - 1]?.entry.to;
  const armLag = cluster.time.exact
    ? 0
    : Math.max(0, (last.armedAt ?? last.from) - (beforeLast ?? last.from));
  if (last.from >= earliest - 2 * tick && last.from <= latest + 2 * tick + armLag) {
    expect(lastDelay, explained).toBeLessThanOrEqual(park + tick);
  } else {
    // A full park, due before the deadline; the attempt after it ran past the deadline.
    expect(Math.abs(lastDelay - park), explained).toBeLessThanOrEqual(tick);
    expect(last.from, explained).toBeLessThan(latest);
    expect(wait.to, explained).toBeGreaterThanOrEqual(earliest);
  }
}

/**
 * Server `label`'s crash takeover read the holder's presence empty, then again exactly one
 * beat after that first empty read (not two: a missed beat), and took the lock on that second
 * read; and the first empty read came within one park (and the load and read after it) of the
 * expiry at `expiredBy`.
 *
 * One schedule differs, on real time only: core cuts a park to end at the beat, but a park
 * shorter than what is left of the beat is not cut, and the read after it can land short of
 * the beat. When the load after that short read runs past the beat, core parks only until
 * the read spacing (the first park, 0.5 s from the short read's start) allows the next read,
 * which then proves the silence: held to that spacing, a load and a read after the short read
 * (a whole 2 s park there fails).
 */
export function expectStoppedReads(cluster: Cluster, label: string, expiredBy: number): void {
  const reads = cluster.events.filter((e) => e.server === label && e.type === 'presence.read');
  const firstEmpty = reads.find((e) => e.type === 'presence.read' && e.answer === 'stopped');
  const last = reads.at(-1);
  expect(firstEmpty, 'no empty presence read').toBeDefined();
  const beatMs = DEFAULT_TIMINGS.beatSeconds * 1000;
  const parkMaxMs = DEFAULT_TIMINGS.parkMaxSeconds * 1000;
  const parkMinMs = DEFAULT_TIMINGS.parkMinSeconds * 1000;
  const gap = { from: firstEmpty!.time, to: last!.time, server: label };
  const wake = lastWake(cluster, gap);
  const due = gap.from + cluster.ms(DEFAULT_TIMINGS.beatSeconds);
  const short = wake === undefined ? undefined : shortRead(cluster, gap, reads, wake, due);
  if (short === undefined) {
    // The second read is due exactly a beat after the first empty one (as core timed that
    // read, which may be a millisecond after its event); then one read.
    const onTime = wake !== undefined && Math.abs(wake.from - due) <= 2;
    const fixed = { from: gap.from, to: onTime ? Math.max(due, wake.from) : due };
    // The beat as core timed it: from its own clock's time of the first empty read, up to
    // 2 ms after the read's event (measured: the wake minus the due time, never a constant).
    const timedLateMs = Math.max(0, fixed.to - due) / cluster.backend.scale;
    const bounds = { atLeastMs: beatMs, atMostMs: beatMs + 10 + timedLateMs, fixed };
    expectWait(cluster, gap, { exactMs: beatMs + 10, ...bounds });
  } else {
    expect(short - firstEmpty!.time).toBeLessThan(cluster.ms(beatMs / 1000));
    expectWait(cluster, gap, { atLeastMs: beatMs });
    // The read spacing after the read that landed short, or its load (100) if that took
    // longer, then the read (10).
    const sinceShort = { from: short, to: last!.time, server: label };
    expectWait(cluster, sinceShort, { atMostMs: parkMinMs + 110 });
  }
  // The read brought forward to the expiry (every built-in presence tells when, `getEntry`):
  // the 10 ms margin, then the read (10). A presence that cannot tell is read at the next wake:
  // a park (2 s at most) over the expiry, then a load (100) and the read (10).
  expectWait(
    cluster,
    { from: expiredBy, to: firstEmpty!.time, server: label },
    { exactMs: 20, atMostMs: parkMaxMs + 110 },
  );
}

/** On real time, the last timer on the path to the second read: the wake it read after. */
function lastWake(cluster: Cluster, gap: Wait): LedgerEntry | undefined {
  if (cluster.time.exact) return undefined;
  return cluster
    .pathOf(gap)
    .steps.filter((step) => step.entry.kind === 'timer')
    .at(-1)?.entry;
}

/**
 * When `wake` was not the timer due a beat after the first empty read (at `due`, give or take
 * the millisecond between that read's event and core's clock): the time of the read before it,
 * which landed short of the beat.
 */
function shortRead(
  cluster: Cluster,
  gap: Wait,
  reads: readonly Cluster['events'][number][],
  wake: LedgerEntry,
  due: number,
): number | undefined {
  if (Math.abs(wake.from - due) <= 2) return undefined;
  const before = reads.filter((e) => e.time > gap.from && e.time < gap.to && e.time <= wake.from);
  const read = before.at(-1);
  // No read before that wake: a late timer, not a short read, and the exact check fails it.
  if (read === undefined) return undefined;
  console.info(
    `${cluster.title ?? ''}: the read ${read.time - gap.from} ms after the first empty one landed short of the beat; one read spacing more`,
  );
  return read.time;
}
