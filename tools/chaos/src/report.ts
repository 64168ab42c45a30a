/** A run's result as text for the terminal and as a markdown section for a results file. */
import type { RunReport } from './run/chaos-run.js';

const ms = (value: number | undefined) => (value === undefined ? '-' : `${Math.round(value)} ms`);
const seconds = (value: number) => `${(value / 1_000).toFixed(1)} s`;
const tally = (record: Readonly<Record<string, number>>) =>
  Object.entries(record)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ') || 'none';

/** The command that replays this run's schedule. */
export function reproduceCommand(report: RunReport, script: string): string {
  const { options } = report;
  return `pnpm ${script} --stack ${options.kind} --seed ${options.seed} --duration ${options.durationMs / 1_000} --servers ${options.servers} --players ${options.players} --rate ${options.hopsPerSecond}`;
}

function rows(report: RunReport): Array<[string, string]> {
  const f = report.figures;
  return [
    [
      'stack',
      `${report.options.kind}, ${report.options.servers} servers, ${report.options.players} players`,
    ],
    [
      'wall time',
      `${seconds(report.wallMs)} (backends ready at ${seconds(report.phasesMs.start.backends)}, servers at ${seconds(report.phasesMs.start.servers)}, schedule ${seconds(report.phasesMs.schedule)}, stop and check ${seconds(report.phasesMs.stop)}; ${f.minutes.toFixed(2)} min of history)`,
    ],
    ['hops', `${f.hopsSent} sent, ${f.hopsToDownServer} to a server that was down`],
    [
      'joins',
      `${f.joins}: ${f.loaded} loaded, failed: ${tally(f.failed)}, unended (their process ended first) ${f.interrupted}`,
    ],
    [
      'join wait p50 / p99',
      `${ms(f.joinWaitMs.p50)} / ${ms(f.joinWaitMs.p99)} (bound ${report.joinBound.documentedMs} ms + ${report.joinBound.lateMs} ms for late timers)`,
    ],
    [
      'hand-overs p50 / p99',
      `${ms(f.handOverMs.p50)} / ${ms(f.handOverMs.p99)} (${f.handOverMs.count} joins that found another server's lock)`,
    ],
    ['takeovers', tally(f.takeovers)],
    ['lost locks', `${f.lostLocks} (${f.lostLocksPerMinute.toFixed(1)} a minute)`],
    ['saves', `${f.acknowledgedSaves} acknowledged, ${f.failedSaves} failed`],
    ['nemesis', tally(f.nemesis)],
    ['violations', String(report.violations.length)],
  ];
}

export function textReport(report: RunReport, script: string): string {
  const lines = rows(report).map(([name, value]) => `  ${name.padEnd(22)} ${value}`);
  const violations = report.violations.map(
    (v) =>
      `  VIOLATION ${v.check} ${v.key}: ${v.detail}\n    ${v.evidence.map((e) => JSON.stringify(e)).join('\n    ')}`,
  );
  return [
    `chaos run, seed ${report.options.seed}: ${report.violations.length === 0 ? 'no violation' : `${report.violations.length} violations`}`,
    ...lines,
    ...violations,
    `  histories: ${report.historyDir}`,
    `  reproduce: ${reproduceCommand(report, script)}`,
  ].join('\n');
}

export function markdownReport(report: RunReport, script: string, when: Date): string {
  return [
    `### ${report.options.kind}, seed ${report.options.seed}, ${report.options.durationMs / 1_000} s (${when.toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `\`${reproduceCommand(report, script)}\``,
    '',
    '| figure | value |',
    '| --- | --- |',
    ...rows(report).map(([name, value]) => `| ${name} | ${value} |`),
    '',
    ...report.violations.map((v) => `- \`${v.check}\` ${v.key}: ${v.detail}`),
    ...(report.violations.length > 0 ? [''] : []),
  ].join('\n');
}
