/** What the checker found wrong, each with the history lines that show it. */
export type CheckName =
  | 'lost-save'
  | 'two-writers'
  | 'counter-back'
  | 'join-unbounded'
  | 'server-crashed';

export interface Violation {
  readonly check: CheckName;
  readonly key: string;
  /** One sentence: what happened, with values and times. */
  readonly detail: string;
  /** The history lines that show it, as written. */
  readonly evidence: readonly unknown[];
}
