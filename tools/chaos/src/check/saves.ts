/**
 * What was acknowledged stays: every read of a profile that began after a save was
 * acknowledged holds at least that save's counter, and so does the store at the end
 * (`lost-save`); a read that began after another read ended holds at least its counter, and
 * so does the end (`counter-back`).
 */
import type { HistoryLine } from '../history.js';
import { byKey, type LineOf, originOf, RunningMax } from './by-key.js';
import type { Violation } from './violation.js';

/** A counter read from the store, from its load's start (it was read after it) to its end. */
export interface TimedRead {
  readonly startedAt: number;
  readonly line: LineOf<'read'>;
}

export function checkSaves(lines: readonly HistoryLine[]): Violation[] {
  const violations: Violation[] = [];
  const saves = byKey(lines, 'save');
  const reads = timedReads(lines);
  const finals = new Map<string, Extract<HistoryLine, { kind: 'final' }>>();
  for (const line of lines) if (line.kind === 'final') finals.set(line.key, line);
  const keys = new Set([...saves.keys(), ...reads.keys(), ...finals.keys()]);
  for (const key of keys) {
    const acked = [...(saves.get(key) ?? [])].sort((a, b) => a.at - b.at);
    const read = [...(reads.get(key) ?? [])].sort((a, b) => a.line.at - b.line.at);
    const savedMax = new RunningMax(
      acked,
      (save) => save.at,
      (save) => save.value,
    );
    const readMax = new RunningMax(
      read,
      (r) => r.line.at,
      (r) => r.line.value,
    );
    for (const current of read) {
      const save = savedMax.before(current.startedAt);
      if (save && current.line.value < save.value) {
        violations.push({
          check: 'lost-save',
          key,
          detail: `${originOf(current.line)} read ${current.line.value} in a load started at ${current.startedAt}, after ${originOf(save)}'s save of ${save.value} was acknowledged at ${save.at}`,
          evidence: [save, current.line],
        });
      }
      const earlier = readMax.before(current.startedAt);
      if (earlier && current.line.value < earlier.line.value) {
        violations.push({
          check: 'counter-back',
          key,
          detail: `${originOf(current.line)} read ${current.line.value} in a load started at ${current.startedAt}, after ${originOf(earlier.line)} had read ${earlier.line.value} at ${earlier.line.at}`,
          evidence: [earlier.line, current.line],
        });
      }
    }
    const final = finals.get(key);
    if (!final) continue;
    const stored = final.value ?? 0;
    const lastSave = savedMax.before(Number.POSITIVE_INFINITY);
    if (lastSave && stored < lastSave.value) {
      violations.push({
        check: 'lost-save',
        key,
        detail: `the store holds ${final.value} at the end, below ${originOf(lastSave)}'s acknowledged save of ${lastSave.value} at ${lastSave.at}`,
        evidence: [lastSave, final],
      });
    }
    const lastRead = readMax.before(Number.POSITIVE_INFINITY);
    if (lastRead && stored < lastRead.line.value) {
      violations.push({
        check: 'counter-back',
        key,
        detail: `the store holds ${final.value} at the end, below the ${lastRead.line.value} ${originOf(lastRead.line)} read at ${lastRead.line.at}`,
        evidence: [lastRead.line, final],
      });
    }
  }
  return violations;
}

/**
 * Each counter read from the store (not an adopted profile's), with its load's start: the
 * latest `load-started` of its key in its process before it.
 */
export function timedReads(lines: readonly HistoryLine[]): Map<string, TimedRead[]> {
  const starts = byKey(lines, 'load-started');
  const reads = new Map<string, TimedRead[]>();
  for (const [key, group] of byKey(lines, 'read')) {
    const timed: TimedRead[] = [];
    for (const line of group) {
      if (!line.stored) continue;
      const origin = originOf(line);
      const start = (starts.get(key) ?? [])
        .filter((s) => originOf(s) === origin && s.at <= line.at)
        .reduce((latest, s) => Math.max(latest, s.at), Number.NEGATIVE_INFINITY);
      // No start seen: when the read began is unknown, so it is after nothing.
      timed.push({ startedAt: start, line });
    }
    reads.set(key, timed);
  }
  return reads;
}
