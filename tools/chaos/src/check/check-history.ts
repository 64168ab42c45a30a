/** The checker: every check over a run's histories, and the figures. */
import type { HistoryLine } from '../history.js';
import type { JoinBound } from '../run/presets.js';
import { checkCrashes } from './crashes.js';
import { type Figures, figuresOf } from './figures.js';
import { checkJoins } from './joins.js';
import { checkSaves } from './saves.js';
import type { Violation } from './violation.js';
import { checkWriters } from './writers.js';

export interface CheckResult {
  readonly violations: readonly Violation[];
  readonly figures: Figures;
}

export interface CheckOptions {
  /** What a join may take, net of its server's stopped time (`joinBoundOf` the servers' timings). */
  readonly joinBound: JoinBound;
}

export function checkHistory(lines: readonly HistoryLine[], options: CheckOptions): CheckResult {
  const joins = checkJoins(lines, options.joinBound);
  return {
    violations: [
      ...checkSaves(lines),
      ...checkWriters(lines),
      ...joins.violations,
      ...checkCrashes(lines),
    ],
    figures: figuresOf(lines, joins.outcomes),
  };
}
