/**
 * The checker on hand-written histories: a clean one passes, and each sabotage (a lost save,
 * two writers, a counter going back, an unbounded or untyped join) is reported by its check
 * and no other.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../src/check/check-history.js';
import type { HistoryLine } from '../src/history.js';
import { final, load, on, save } from './support/lines.js';

/** 1,000 ms in all. */
const BOUND = { joinBound: { documentedMs: 800, lateMs: 200 } };
const checks = (lines: HistoryLine[]) => checkHistory(lines, BOUND).violations.map((v) => v.check);

/** p on server a (token A: 0 read, 1 and 2 saved), then on b (token B: 2 read, 3 saved). */
function clean(): HistoryLine[] {
  return [
    ...on(
      'a',
      ...load('p', 1, 0, 10, 'A', 0),
      save('p', 'A', 1, 20, 25),
      save('p', 'A', 2, 40, 45),
    ),
    ...on('b', ...load('p', 1, 100, 110, 'B', 2), save('p', 'B', 3, 120, 125)),
    final('p', 3),
  ];
}

describe('checkHistory', () => {
  it('passes a history in which every save was kept and one server wrote at a time', () => {
    expect(checks(clean())).toEqual([]);
  });

  it('reports a lost save: a read that began after a save was acknowledged holds less', () => {
    const lines = clean().map((line) =>
      line.kind === 'read' && line.server === 'b' ? { ...line, value: 1 } : line,
    );
    expect(checks(lines)).toEqual(['lost-save']);
  });

  it('reports a lost save: the store ends below an acknowledged save', () => {
    const lines = [...clean().filter((line) => line.kind !== 'final'), final('p', 2)];
    expect(checks(lines)).toEqual(['lost-save']);
  });

  it('reports a lost save when the record is gone at the end', () => {
    const lines = [...clean().filter((line) => line.kind !== 'final'), final('p', null)];
    expect(checks(lines)).toEqual(['lost-save', 'counter-back']);
  });

  it('reports a counter going back: a later read below an earlier one, with no save between', () => {
    const lines = [
      ...on('a', ...load('q', 1, 0, 10, 'A', 7)),
      ...on('b', ...load('q', 1, 20, 30, 'B', 4)),
      final('q', 7),
    ];
    expect(checks(lines)).toEqual(['counter-back']);
  });

  it('reports two writers: a save begun after another server loaded the profile was acknowledged', () => {
    const lines = [
      ...on(
        'a',
        ...load('p', 1, 0, 10, 'A', 0),
        save('p', 'A', 1, 20, 25),
        save('p', 'A', 5, 150, 155),
      ),
      ...on('b', ...load('p', 1, 100, 110, 'B', 1), save('p', 'B', 2, 120, 125)),
      final('p', 5),
    ];
    const { violations } = checkHistory(lines, BOUND);
    expect(violations.map((v) => v.check)).toEqual(['two-writers']);
    expect(violations[0]?.detail).toMatch(/b#1 loaded it \(token B\) at 110, yet a#1 \(token A/);
  });

  it('does not call a save begun before the other load ended a second writer (a stopped holder)', () => {
    const lines = [
      ...on('a', ...load('p', 1, 0, 10, 'A', 0), save('p', 'A', 1, 105, 400)),
      ...on('b', ...load('p', 1, 100, 110, 'B', 1), save('p', 'B', 2, 120, 125)),
      final('p', 2),
    ];
    expect(checks(lines)).toEqual([]);
  });
});

describe('checkHistory joins', () => {
  const started = (at: number, loadId = 1) => ({
    kind: 'load-started' as const,
    at,
    key: 'p',
    loadId,
  });
  const ended = (at: number, outcome: 'loaded' | 'failed', code?: string, loadId = 1) => ({
    kind: 'load-ended' as const,
    at,
    key: 'p',
    loadId,
    outcome,
    ...(code ? { code } : {}),
  });

  it('passes a join that ended within its bound, loaded or with a typed error', () => {
    const lines = on(
      'a',
      started(0),
      ended(900, 'loaded'),
      started(1_000, 2),
      ended(1_950, 'failed', 'Data.Locked', 2),
    );
    expect(checks(lines)).toEqual([]);
  });

  it('reports a join that ended past its bound', () => {
    const lines = on('a', started(0), ended(1_500, 'loaded'));
    expect(checks(lines)).toEqual(['join-unbounded']);
  });

  it('reports a join that failed without a typed error', () => {
    const lines = on('a', started(0), ended(10, 'failed', 'Error'));
    expect(checks(lines)).toEqual(['join-unbounded']);
  });

  it('reports a join that never ended while its process went on', () => {
    const lines = on('a', started(0), { kind: 'lock-lost', at: 5_000, key: 'x' });
    expect(checks(lines)).toEqual(['join-unbounded']);
  });

  it('excuses a join its process did not outlive (killed within the bound)', () => {
    const lines = on('a', started(0), { kind: 'lock-lost', at: 500, key: 'x' });
    const result = checkHistory(lines, BOUND);
    expect(result.violations).toEqual([]);
    expect(result.figures.interrupted).toBe(1);
  });

  it('does not count the time its own server was stopped (SIGSTOP) against a join', () => {
    const pause = (at: number, phase: 'start' | 'end'): HistoryLine => ({
      kind: 'nemesis',
      at,
      action: 'pause',
      target: 'a',
      phase,
    });
    const lines = [
      pause(100, 'start'),
      pause(1_100, 'end'),
      ...on('a', started(0), ended(1_800, 'loaded')),
    ];
    expect(checks(lines)).toEqual([]);
    // Another server's pause excuses nothing.
    const elsewhere = lines.map((line) =>
      line.kind === 'nemesis' ? { ...line, target: 'b' } : line,
    );
    expect(checks(elsewhere)).toEqual(['join-unbounded']);
  });
});

describe('checkHistory exits', () => {
  const exit = (expected: boolean): HistoryLine => ({
    kind: 'exit',
    at: 50,
    server: 'a',
    incarnation: 1,
    code: expected ? null : 1,
    signal: expected ? 'SIGKILL' : null,
    expected,
  });

  it('passes a process the nemesis killed or the run stopped', () => {
    expect(checks([exit(true)])).toEqual([]);
  });

  it('reports a process that died unasked', () => {
    expect(checks([exit(false)])).toEqual(['server-crashed']);
  });
});
