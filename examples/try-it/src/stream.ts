/**
 * What the page receives: a case's timeline as a stream of messages. The page only draws
 * these, so either runner (the in-memory one, or real game servers on Redis) can feed it.
 */

/** How an entry reads at a glance; the page colours its mark by it. */
export type Tone = 'info' | 'wait' | 'good' | 'bad' | 'quiet';

/** One thing that happened on one server, `t` ms after the case's story started. */
export interface TimelineEntry {
  /** Milliseconds since the story started, on the runner's clock. */
  readonly t: number;
  /** The server's label ("A", "B"). */
  readonly server: string;
  /** The core event's type (`load.loaded`, `presence.read`, ...) or the story's own (`server.crashed`). */
  readonly type: string;
  readonly text: string;
  readonly tone: Tone;
}

/** How a case ended: what the player saw, and the wait it is measured by. */
export interface Outcome {
  /** The server the outcome happened on. */
  readonly server: string;
  /** `loaded`: the player plays; `kicked`: the join failed closed. */
  readonly kind: 'loaded' | 'kicked';
  /** The wait the case is measured by (see `measuredFrom`), in ms. */
  readonly waitedMs: number;
  /** What the wait is counted from: the join, or the holder's last presence beat. */
  readonly measuredFrom: 'join' | 'last-beat';
  /** The player's coins once loaded. */
  readonly coins?: number;
  /** The record as the backend holds it once the story is over (the Redis runner reads it). */
  readonly stored?: StoredRecord;
  /** One sentence for the page: "B loaded p1 after 340 ms with 11 coins." */
  readonly text: string;
}

/** A profile's record as read back from the backend. */
export interface StoredRecord {
  readonly coins: number;
  /** The label of the server whose lock is on the record, `null` when it is unlocked. */
  readonly holder: string | null;
  /** Whether that lock carries the presence flag (written by a server with handoff on). */
  readonly presenceFlag?: boolean;
}

export type StreamMessage =
  | {
      readonly kind: 'started';
      readonly caseId: string;
      readonly mode: string;
      readonly servers: readonly string[];
      /** Virtual ms per wall ms; `null` when the case runs as fast as it can. */
      readonly rate: number | null;
    }
  | { readonly kind: 'entry'; readonly entry: TimelineEntry }
  /** The story's clock, sent while it runs so the page's elapsed time follows it. */
  | { readonly kind: 'clock'; readonly t: number }
  | { readonly kind: 'outcome'; readonly t: number; readonly outcome: Outcome }
  | { readonly kind: 'error'; readonly text: string }
  | { readonly kind: 'end' };

export type StreamSink = (message: StreamMessage) => void;

/** A case as the page lists it: the seed's words, and how fast it plays. */
export interface CaseInfo {
  readonly id: string;
  /** Lock handoff cases (on another server, on the same one), or profile messages. */
  readonly group: 'another-server' | 'same-server' | 'messages';
  readonly title: string;
  /** The seed's "What happens", word for word. */
  readonly happens: string;
  /** The seed's "Wait" column. */
  readonly seedWait: string;
  /** The wait as the list of cases shows it, when the seed's words are too long for it. */
  readonly shortWait?: string;
  /** Where the story starts. */
  readonly setup: string;
  /** A longer explanation. */
  readonly explanation: string;
  /** Played this many times faster than life (the crash case: 4). */
  readonly pace: number;
  readonly servers: readonly string[];
}

export interface RunOptions {
  /**
   * Wall-time speed-up on top of the case's pace; `'instant'` runs without pacing. Real
   * processes run in real time: the Redis runner ignores it.
   */
  readonly speed: number | 'instant';
  readonly signal?: AbortSignal;
}

/**
 * Which clock a runner's times are on: a virtual clock (in-memory, exact to the millisecond)
 * or the wall clock of real processes.
 */
export type RunnerClock = 'virtual' | 'wall';

/**
 * Plays the cases. The in-memory runner drives the real core on a virtual clock; the Redis
 * runner drives the example game servers as real processes instead, with the same messages.
 */
export interface CaseRunner {
  /** Shown on the page: "in-memory", "Redis". */
  readonly mode: string;
  /** How the cases run, in a sentence or two, for the page's header. */
  readonly about: string;
  readonly clock: RunnerClock;
  readonly cases: readonly CaseInfo[];
  /** Plays one case, sending its timeline to `sink`; resolves with its outcome. */
  run(caseId: string, options: RunOptions, sink: StreamSink): Promise<Outcome>;
  /** Stops whatever the runner still has running (real processes); the demo calls it on exit. */
  close(): Promise<void>;
}
