/** What a real-time wait is printed with: its slack's figures, and on failure its trace. */
import type { Cluster } from '../cluster.js';
import { describeUnscaled, SLACK_FLOOR_MS, type Span } from '../cluster-ledger.js';

/** `slack 74 ms, the unscaled time of the wait: store 41 ms in 6, ...` */
export function describeSlack(cluster: Cluster, wait: Span): string {
  const unscaled = cluster.unscaledIn(wait);
  const slack = cluster.slackFor(wait);
  const spent = `${Math.round(unscaled.totalMs)} ms unscaled: ${describeUnscaled(unscaled)}`;
  return slack === SLACK_FLOOR_MS && unscaled.totalMs < SLACK_FLOOR_MS
    ? `slack ${slack} ms, the floor (${spent})`
    : `slack ${slack} ms = ${spent}`;
}

/** The relative time of `at` in `wait`, as `+12` (ms). */
function offset(wait: Span, at: number): string {
  const ms = Math.round(at - wait.from);
  return ms < 0 ? `${ms}` : `+${ms}`;
}

/**
 * Every event of the cluster's servers and every ledger entry in the wait, in time order, one
 * a line: what a failed bound is read from (which call was slow, which timer late, which wake
 * was a timeout rather than a reply).
 */
export function traceOf(cluster: Cluster, wait: Span): string {
  const lines: Array<{ at: number; text: string }> = [];
  for (const event of cluster.events) {
    if (event.time < wait.from || event.time > wait.to) continue;
    const {
      server,
      type,
      time,
      jobId: _jobId,
      driver: _driver,
      ...fields
    } = event as typeof event & {
      driver?: string;
    };
    const detail = Object.entries(fields)
      .filter(([, value]) => typeof value !== 'object' || value === null)
      .map(([field, value]) => `${field}=${String(value)}`)
      .join(' ');
    lines.push({ at: time, text: `${offset(wait, time)} ${server} ${type} ${detail}` });
  }
  for (const entry of cluster.ledger.during(wait)) {
    const took = Math.round(entry.to - entry.from);
    lines.push({
      at: entry.from,
      text: `${offset(wait, entry.from)} ${entry.server} [${entry.kind} ${took} ms] ${entry.what}`,
    });
  }
  lines.sort((a, b) => a.at - b.at);
  return [`trace of the wait (ms from its start):`, ...lines.map((line) => line.text)].join('\n');
}
