/**
 * The join bound the checker applies: derived from the settings the servers run with, equal to
 * the guide's (same-server wait + lockWaitSeconds + one presence TTL), and a join just under it
 * passes while one just over it is reported.
 */
import { describe, expect, it } from 'vitest';
import type { LineOf } from '../src/check/by-key.js';
import { checkHistory } from '../src/check/check-history.js';
import type { HistoryLine } from '../src/history.js';
import { CHAOS_TIMINGS, joinBoundOf, LOAD_TIMINGS } from '../src/run/presets.js';
import type { ServerTimings } from '../src/server/server-config.js';
import { on } from './support/lines.js';

/** The library's defaults, as a chaos server would run them unscaled. */
const DEFAULTS: ServerTimings = {
  ...CHAOS_TIMINGS,
  scale: 1,
  lockWaitSeconds: 15,
  localHandoffSeconds: 0,
};

describe('joinBoundOf', () => {
  it.each([
    // The guide: "a join with no same-server wait ends at 15 s + 10 s = 25 s".
    ['the library defaults', DEFAULTS, 25_000],
    // 2 s same-server + 5 s lock wait + 2 s presence TTL (10 s at scale 0.2).
    ['the chaos runs', CHAOS_TIMINGS, 9_000],
    ['the load run', LOAD_TIMINGS, 9_000],
    ['a longer lock wait', { ...CHAOS_TIMINGS, lockWaitSeconds: 25 }, 29_000],
    ['unscaled handoff timings', { ...CHAOS_TIMINGS, scale: 1 }, 17_000],
  ])('%s: the guide bound at those settings', (_name, timings, documentedMs) => {
    expect(joinBoundOf(timings)).toEqual({ documentedMs, lateMs: 2_000 });
  });
});

describe('the join-unbounded rule at the chaos runs bound', () => {
  const bound = joinBoundOf(CHAOS_TIMINGS);
  const limit = bound.documentedMs + bound.lateMs;
  type Ending = Pick<LineOf<'load-ended'>, 'outcome' | 'code' | 'reason'>;
  const join = (waitedMs: number, ending: Ending): HistoryLine[] => {
    const ended = { kind: 'load-ended' as const, at: 1_000 + waitedMs, key: 'p', loadId: 1 };
    return on(
      'a',
      { kind: 'load-started', at: 1_000, key: 'p', loadId: 1 },
      { ...ended, ...ending },
    );
  };
  const loaded: Ending = { outcome: 'loaded', reason: 'unlocked' };
  const locked: Ending = { outcome: 'failed', code: 'Data.Locked' };
  const timeout: Ending = { outcome: 'failed', code: 'Data.Timeout' };
  const adopted: Ending = { outcome: 'loaded', reason: 'adopted' };

  it.each([
    ['loaded just under the bound', limit - 1, loaded, []],
    ['loaded at the bound', limit, loaded, []],
    ['loaded just over the bound', limit + 1, loaded, ['join-unbounded']],
    ['Data.Locked just under', limit - 1, locked, []],
    ['Data.Locked just over', limit + 1, locked, ['join-unbounded']],
    ['Data.Timeout at the store bound', bound.documentedMs, timeout, []],
    ['Data.Timeout just over', limit + 1, timeout, ['join-unbounded']],
    // The guide leaves the adoption save to the store's own timeouts.
    ['adopted far past the bound', limit * 3, adopted, []],
  ])('%s (%i ms)', (_name, waitedMs, ending, expected) => {
    const checks = checkHistory(join(waitedMs, ending), { joinBound: bound }).violations;
    expect(checks.map((violation) => violation.check)).toEqual(expected);
  });
});
