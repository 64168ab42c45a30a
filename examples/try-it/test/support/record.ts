import { MemoryCaseRunner } from '../../src/memory/memory-runner.js';
import type {
  CaseRunner,
  Outcome,
  RunOptions,
  StreamMessage,
  TimelineEntry,
} from '../../src/stream.js';

export interface Recording {
  readonly outcome: Outcome;
  readonly messages: readonly StreamMessage[];
  /** The entries a reader sees in the log: everything but presence beats. */
  readonly shown: readonly TimelineEntry[];
  readonly entries: readonly TimelineEntry[];
}

/** Plays `caseId` on the in-memory runner and keeps every message it streams. */
export function record(caseId: string, speed: RunOptions['speed'] = 'instant') {
  return recordOn(new MemoryCaseRunner(), caseId, { speed });
}

/** Plays `caseId` on `runner` and keeps every message it streams. */
export async function recordOn(runner: CaseRunner, caseId: string, options: RunOptions) {
  const messages: StreamMessage[] = [];
  const outcome = await runner.run(caseId, options, (message) => messages.push(message));
  const entries = messages.flatMap((message) => (message.kind === 'entry' ? [message.entry] : []));
  return {
    outcome,
    messages,
    entries,
    shown: entries.filter((entry) => entry.type !== 'presence.beat'),
  } satisfies Recording;
}

/** `"340 B load.loaded"`: an entry as one comparable line. */
export function line(entry: TimelineEntry): string {
  return `${entry.t} ${entry.server} ${entry.type}`;
}
