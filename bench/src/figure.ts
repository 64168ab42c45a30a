/** One measured figure of the report: a row of results.md and an entry of results.json. */
import type { Summary } from './stats.js';

export type Unit =
  | 'ms'
  | 's'
  | 'µs'
  | 'cycles/s'
  | 'sends/s'
  | 'ops/min'
  | 'ratio'
  | 'round trips'
  | 'writes/h'
  | 'KB/h';

export interface Figure {
  /** Stable id, e.g. `handover.all-redis`; the CI test checks that each expected one exists. */
  readonly id: string;
  /** The table's group, e.g. "Live hand-over". */
  readonly section: string;
  readonly label: string;
  readonly unit: Unit;
  /** The distribution, when the figure has samples. */
  readonly summary?: Summary;
  /** A single value (a ratio, a rate), when it has none. */
  readonly value?: number;
  /** What the figure is held against, in words ("< 2", "floor 10-13 s"). */
  readonly goal?: string;
  /** Whether the goal was met; unset when the figure has no goal. */
  readonly meetsGoal?: boolean;
  readonly note?: string;
  /** Anything else worth keeping in results.json (phase breakdowns, raw counts). */
  readonly detail?: Readonly<Record<string, unknown>>;
}
