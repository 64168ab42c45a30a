/** An inspection as people read it. */
import { duration, preview, quoted, rows, when } from './format.js';
import type { Inspection } from './inspect.js';
import type { Liveness } from './liveness.js';

export function renderInspection(inspection: Inspection, now: number): string {
  const title = `${inspection.storeKey}  (${inspection.where})\n`;
  const entries: Array<readonly [string, string]> = [];
  if (!inspection.found) {
    entries.push(['record', 'none']);
  } else {
    entries.push([
      'record',
      `${inspection.sizeBytes} bytes, ${inspection.writes} writes, schema ${inspection.schema}`,
    ]);
    entries.push(['user ids', inspection.userIds?.join(', ') || 'none']);
    const { lock } = inspection;
    entries.push([
      'lock',
      lock
        ? `server ${lock.jobId}, token ${lock.token}, last write ${duration(lock.ageMs)} ago, presence flag ${lock.presence ? 'yes' : 'no'}`
        : 'none',
    ]);
    if (lock) entries.push(['holder', livenessText(inspection.holder)]);
    entries.push(['released token', inspection.releasedToken ?? 'none']);
    entries.push(['trade', tradeText(inspection)]);
  }
  entries.push(['messages', messagesText(inspection)]);
  versionsText(inspection, now).forEach((text, index) => {
    entries.push([index === 0 ? 'versions' : '', text]);
  });
  entries.push(['a load now', `${inspection.verdict.state}: ${inspection.verdict.explanation}`]);
  if (inspection.data !== undefined) entries.push(['data', preview(inspection.data, 2_000)]);
  return title + rows(entries);
}

export function livenessText(liveness: Liveness | undefined): string {
  if (!liveness) return 'not read (no presence given: --redis, or --presence-table)';
  const watched =
    liveness.answer !== 'unknown' && liveness.watchedMs !== undefined
      ? `, watched for ${duration(liveness.watchedMs)}`
      : '';
  switch (liveness.answer) {
    case 'alive':
      return liveness.beatAgeMs === undefined
        ? `alive (beats presence${watched})`
        : `alive (last beat ${duration(liveness.beatAgeMs)} ago)`;
    case 'stopped':
      return `stopped (no presence beat${watched})`;
    case 'unknown':
      return `unknown (the presence read failed: ${liveness.error})`;
  }
}

function tradeText({ trade }: Inspection): string {
  if (!trade) return 'none';
  const journal =
    trade.state === 'missing' ? 'no journal (reads as aborted)' : `journal ${trade.state}`;
  const next = trade.settledBySave
    ? 'a later save already carries it'
    : trade.appliesJournalData
      ? "the next load applies the journal's data first"
      : `the next load settles it first (${trade.outcome}), keeping the data`;
  return `${trade.id}: ${journal}; ${next} (${trade.journal})`;
}

function versionsText(inspection: Inspection, now: number): string[] {
  if (inspection.versionsError) return [`unavailable: ${inspection.versionsError}`];
  if (!inspection.versions) return ['not kept by this store'];
  if (inspection.versions.length === 0) return ['none'];
  return inspection.versions.map((version) => when(version.time, now));
}

function messagesText({ messages, messagesError }: Inspection): string {
  if (messagesError) return `unreadable: ${messagesError}`;
  if (!messages || messages.pending === 0) return 'none pending';
  const { oldest } = messages;
  const age = oldest ? `; oldest ${quoted(oldest.id)}, sent ${duration(oldest.ageMs)} ago` : '';
  return `${messages.pending} pending${age} (datadriver inbox lists them)`;
}
