/**
 * Every join ends within its bound, with the profile loaded or a typed error (a
 * `DataDriverError` code, `Data.*`). The bound is the documented one at the servers' settings
 * (`joinBoundOf`: the same-server wait, `lockWaitSeconds` and one presence TTL) and the real
 * clock's allowance for late timers, plus whatever time the joining server itself spent stopped
 * (SIGSTOP) during the join. A join that adopted a profile this server still held is held to no
 * time: its adoption save is awaited to its end, bounded only by the store's own timeouts (the
 * guide says so), so only that it ended counts. A join that never ended is excused only when
 * its process went silent (killed) before the bound had passed.
 */
import type { HistoryLine } from '../history.js';
import type { JoinBound } from '../run/presets.js';
import { type LineOf, originOf } from './by-key.js';
import type { Violation } from './violation.js';

export interface JoinOutcome {
  readonly started: LineOf<'load-started'>;
  readonly ended: LineOf<'load-ended'> | undefined;
  /** How long it took, net of the server's stopped time; undefined when it never ended. */
  readonly waitedMs: number | undefined;
  /** It never ended because its process died first. */
  readonly interrupted: boolean;
}

export interface JoinCheck {
  readonly outcomes: readonly JoinOutcome[];
  readonly violations: readonly Violation[];
}

const TYPED_CODE = /^Data\.[A-Za-z]+$/;

/** The longest a join may take by the checker's clock. */
export function allowedMs(bound: JoinBound): number {
  return bound.documentedMs + bound.lateMs;
}

/** Past its bound: a join that took `waitedMs` (net of its server's stopped time). */
export function pastBound(
  ended: LineOf<'load-ended'>,
  waitedMs: number,
  bound: JoinBound,
): boolean {
  return ended.reason !== 'adopted' && waitedMs > allowedMs(bound);
}

export function checkJoins(lines: readonly HistoryLine[], bound: JoinBound): JoinCheck {
  const boundMs = allowedMs(bound);
  const ends = new Map<string, LineOf<'load-ended'>>();
  const lastSeen = new Map<string, number>();
  for (const line of lines) {
    if (!('server' in line)) continue;
    const origin = originOf(line);
    lastSeen.set(origin, Math.max(lastSeen.get(origin) ?? 0, line.at));
    if (line.kind === 'load-ended') ends.set(`${origin}/${line.loadId}`, line);
  }
  const paused = pauseWindows(lines);
  const outcomes: JoinOutcome[] = [];
  const violations: Violation[] = [];
  for (const line of lines) {
    if (line.kind !== 'load-started') continue;
    const origin = originOf(line);
    const ended = ends.get(`${origin}/${line.loadId}`);
    const stoppedMs = (until: number) => overlap(paused.get(line.server) ?? [], line.at, until);
    if (!ended) {
      const silentAt = lastSeen.get(origin) ?? line.at;
      const interrupted = silentAt - line.at - stoppedMs(silentAt) <= boundMs;
      outcomes.push({ started: line, ended, waitedMs: undefined, interrupted });
      if (!interrupted) {
        violations.push({
          check: 'join-unbounded',
          key: line.key,
          detail: `${origin}'s load ${line.loadId} started at ${line.at} never ended, though the process was still writing at ${silentAt}`,
          evidence: [line],
        });
      }
      continue;
    }
    const waitedMs = ended.at - line.at - stoppedMs(ended.at);
    outcomes.push({ started: line, ended, waitedMs, interrupted: false });
    const untyped = ended.outcome === 'failed' && !TYPED_CODE.test(ended.code ?? '');
    if (pastBound(ended, waitedMs, bound) || untyped) {
      violations.push({
        check: 'join-unbounded',
        key: line.key,
        detail: untyped
          ? `${origin}'s load ${line.loadId} failed without a typed error (code ${ended.code})`
          : `${origin}'s load ${line.loadId} ended (${ended.outcome}${ended.code ? ` ${ended.code}` : ''}) after ${waitedMs} ms, past its ${boundMs} ms bound (${bound.documentedMs} ms documented + ${bound.lateMs} ms for late timers)`,
        evidence: [line, ended],
      });
    }
  }
  return { outcomes, violations };
}

type Window = readonly [number, number];

/** When each server was stopped by the nemesis (SIGSTOP to SIGCONT). */
function pauseWindows(lines: readonly HistoryLine[]): Map<string, Window[]> {
  const open = new Map<string, number>();
  const windows = new Map<string, Window[]>();
  for (const line of lines) {
    if (line.kind !== 'nemesis' || line.action !== 'pause') continue;
    if (line.phase === 'start') open.set(line.target, line.at);
    else {
      const list = windows.get(line.target) ?? [];
      list.push([open.get(line.target) ?? line.at, line.at]);
      windows.set(line.target, list);
      open.delete(line.target);
    }
  }
  // Never resumed (the run was cut short): stopped until the end.
  for (const [target, from] of open) {
    windows.set(target, [...(windows.get(target) ?? []), [from, Number.POSITIVE_INFINITY]]);
  }
  return windows;
}

function overlap(windows: readonly Window[], from: number, to: number): number {
  let total = 0;
  for (const [start, end] of windows)
    total += Math.max(0, Math.min(end, to) - Math.max(start, from));
  return total;
}
