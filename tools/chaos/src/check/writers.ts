/**
 * Never two live writers of one profile. A lock token names one ownership of a profile: it
 * held the lock from before its load ended (its `read`) until after its last acknowledged save
 * began. If two tokens' spans overlap, both held the lock at one instant and both wrote after
 * it: one of them wrote without the lock (`two-writers`). Spans without an acknowledged save
 * claim nothing.
 */
import type { HistoryLine } from '../history.js';
import { byKey, type LineOf, originOf } from './by-key.js';
import type { Violation } from './violation.js';

interface Ownership {
  readonly token: string;
  readonly from: LineOf<'read'>;
  readonly lastSave: LineOf<'save'>;
}

export function checkWriters(lines: readonly HistoryLine[]): Violation[] {
  const violations: Violation[] = [];
  const reads = byKey(lines, 'read');
  for (const [key, saves] of byKey(lines, 'save')) {
    const spans = ownerships(reads.get(key) ?? [], saves).sort((a, b) => a.from.at - b.from.at);
    let widest: Ownership | undefined;
    for (const span of spans) {
      if (widest && span.from.at < widest.lastSave.startedAt) {
        violations.push({
          check: 'two-writers',
          key,
          detail: `${originOf(span.from)} loaded it (token ${span.token}) at ${span.from.at}, yet ${originOf(widest.lastSave)} (token ${widest.token}, loaded at ${widest.from.at}) began a save at ${widest.lastSave.startedAt} that was acknowledged`,
          evidence: [widest.from, widest.lastSave, span.from, span.lastSave],
        });
      }
      if (!widest || span.lastSave.startedAt > widest.lastSave.startedAt) widest = span;
    }
  }
  return violations;
}

function ownerships(
  reads: readonly LineOf<'read'>[],
  saves: readonly LineOf<'save'>[],
): Ownership[] {
  const first = new Map<string, LineOf<'read'>>();
  for (const read of reads) {
    const seen = first.get(read.token);
    if (!seen || read.at < seen.at) first.set(read.token, read);
  }
  const last = new Map<string, LineOf<'save'>>();
  for (const save of saves) {
    const seen = last.get(save.token);
    if (!seen || save.startedAt > seen.startedAt) last.set(save.token, save);
  }
  const spans: Ownership[] = [];
  for (const [token, lastSave] of last) {
    const from = first.get(token);
    // A save under a token nobody logged loading: its span starts at its own first save.
    const start = from ?? earliestSave(saves, token);
    spans.push({ token, from: start, lastSave });
  }
  return spans;
}

/** The first acknowledged save of `token`, standing in for its read. */
function earliestSave(saves: readonly LineOf<'save'>[], token: string): LineOf<'read'> {
  const first = saves
    .filter((save) => save.token === token)
    .reduce((a, b) => (b.at < a.at ? b : a));
  return { ...first, kind: 'read', at: first.at, stored: false };
}
