/**
 * A run's history: one JSON object a line, written by each server process (what it loaded and
 * which saves were acknowledged), by the workload (the hops it sent) and by the nemesis (what
 * it did, and when). Every time is the machine's wall clock (`Date.now()`): all processes run
 * on one machine, so their times compare.
 */
import { closeSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Which server process wrote a line: its job id and its start count (a restart adds one). */
export interface Origin {
  readonly server: string;
  readonly incarnation: number;
}

export type ServerLine = Origin &
  (
    | { readonly kind: 'started'; readonly at: number }
    | {
        readonly kind: 'load-started';
        readonly at: number;
        readonly key: string;
        readonly loadId: number;
      }
    | {
        readonly kind: 'load-ended';
        readonly at: number;
        readonly key: string;
        readonly loadId: number;
        readonly outcome: 'loaded' | 'failed';
        /** `DataDriverError.code` of a failed load. */
        readonly code?: string;
        /** Why the lock could be taken (`TakeReason`), or `adopted`. */
        readonly reason?: string;
      }
    | {
        /** The load found another server's lock and waits for it (its first such wait). */
        readonly kind: 'load-waited';
        readonly at: number;
        readonly key: string;
        readonly loadId: number;
      }
    | {
        /** The counter as the profile was loaded (`stored`: read from the store, not adopted). */
        readonly kind: 'read';
        readonly at: number;
        readonly key: string;
        readonly token: string;
        readonly value: number;
        readonly stored: boolean;
      }
    | {
        /** An acknowledged save: `value` was stored under `token` between `startedAt` and `at`. */
        readonly kind: 'save';
        readonly startedAt: number;
        readonly at: number;
        readonly key: string;
        readonly token: string;
        readonly value: number;
      }
    | {
        readonly kind: 'save-failed';
        readonly at: number;
        readonly key: string;
        readonly token: string;
        readonly value: number;
        readonly code: string;
      }
    | { readonly kind: 'lock-lost'; readonly at: number; readonly key: string }
    | {
        readonly kind: 'lock-taken';
        readonly at: number;
        readonly key: string;
        readonly reason: string;
        /** The job id the lock was taken from. */
        readonly from: string;
      }
    | { readonly kind: 'kicked'; readonly at: number; readonly key: string; readonly cause: string }
    | {
        /** A clean stop: `driver.close()` returned. */
        readonly kind: 'closed';
        readonly at: number;
        readonly unreleased: number;
      }
  );

export type NemesisAction = 'kill' | 'pause' | 'cut-store' | 'cut-bus' | 'restart-backend';

export type RunnerLine =
  | {
      /** A fault began (`start`) or was healed (`end`); `target` is a job id or `backend`. */
      readonly kind: 'nemesis';
      readonly at: number;
      readonly action: NemesisAction;
      readonly target: string;
      readonly phase: 'start' | 'end';
    }
  | {
      readonly kind: 'hop';
      readonly at: number;
      readonly player: string;
      readonly to: string;
      /** `live`: joins while still on the old server; `clean`: leaves it first. */
      readonly mode: 'live' | 'clean';
      /** False when the target was down and the join could not be sent. */
      readonly sent: boolean;
    }
  | {
      /**
       * A server process ended: `expected` when the nemesis killed it or the run stopped it;
       * any other exit is a crash.
       */
      readonly kind: 'exit';
      readonly at: number;
      readonly server: string;
      readonly incarnation: number;
      readonly code: number | null;
      readonly signal: string | null;
      readonly expected: boolean;
    }
  | {
      /** The counter stored at the end of the run, read from the store (null: no record). */
      readonly kind: 'final';
      readonly at: number;
      readonly key: string;
      readonly value: number | null;
    };

export type HistoryLine = ServerLine | RunnerLine;

/**
 * Appends lines to a file with a synchronous write each, so a line written before a SIGKILL is
 * in the file: an acknowledged save is logged only after it was acknowledged, and a kill can
 * lose at most the claim, never make a false one.
 */
export class HistoryWriter {
  private readonly descriptor: number;

  constructor(readonly path: string) {
    this.descriptor = openSync(path, 'a');
  }

  write(line: HistoryLine): void {
    writeSync(this.descriptor, `${JSON.stringify(line)}\n`);
  }

  close(): void {
    closeSync(this.descriptor);
  }
}

/** Every line of every `*.jsonl` file in `directory`; a torn last line (a kill mid-write) is skipped. */
export function readHistories(directory: string): HistoryLine[] {
  const lines: HistoryLine[] = [];
  for (const name of readdirSync(directory)
    .filter((file) => file.endsWith('.jsonl'))
    .sort()) {
    for (const text of readFileSync(join(directory, name), 'utf8').split('\n')) {
      if (text.trim() === '') continue;
      try {
        lines.push(JSON.parse(text) as HistoryLine);
      } catch {
        // Only the last line of a killed server's file can be torn, and it claimed nothing yet.
      }
    }
  }
  return lines;
}
