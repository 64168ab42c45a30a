/** What a real-time wait is printed with: its slack's figures, and on failure its trace. */
import type { Cluster } from '../cluster/cluster.js';
import { describePathSlack, type Wait } from '../cluster/critical-path.js';
import type { Span } from '../cluster/ledger.js';

/**
 * `slack 42 ms = path 74 ms (store 41 ms in 3, ...; timers 50 ms) - model 34 ms + own work 2 ms
 * of 2`; `reply path` where the holder's release chain to the reply gave the larger slack.
 */
export function describeSlack(cluster: Cluster, wait: Wait, fixed?: Span): string {
  const slack = cluster.slackFor(wait, fixed);
  const described = describePathSlack(slack, slack.path);
  const via = slack.viaReply ? 'reply ' : slack.viaRelease ? 'release ' : '';
  return `slack ${slack.slackMs} ms = ${via}${described}`;
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
export function traceOf(cluster: Cluster, wait: Span & { readonly server?: string }): string {
  const lines: Array<{ at: number; text: string }> = [];
  const onPath = new Set(
    wait.server === undefined
      ? []
      : cluster.slackFor({ ...wait, server: wait.server }).path.steps.map((step) => step.entry),
  );
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
      text: `${offset(wait, entry.from)} ${onPath.has(entry) ? '*' : ' '}${entry.server} [${entry.kind} ${took} ms] ${entry.what}`,
    });
  }
  lines.sort((a, b) => a.at - b.at);
  const title = 'trace of the wait (ms from its start; * on its path):';
  return [title, ...lines.map((line) => line.text)].join('\n');
}
