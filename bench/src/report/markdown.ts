/** results.md: the machine, then one table of every figure, grouped by section. */
import type { Figure, Unit } from '../figure.js';
import type { RunResults } from '../run.js';

const DIGITS: Record<Unit, (value: number) => number> = {
  ms: (value) => (Math.abs(value) < 10 ? 2 : 1),
  s: () => 2,
  µs: () => 1,
  'cycles/s': () => 0,
  'sends/s': () => 0,
  'ops/min': () => 1,
  ratio: () => 2,
  'round trips': () => 2,
  'writes/h': () => 0,
  'KB/h': () => 1,
};

export function format(value: number | undefined, unit: Unit): string {
  if (value === undefined) return '';
  if (Number.isNaN(value)) return 'n/a';
  return value.toFixed(DIGITS[unit](value));
}

export function markdownReport(results: RunResults, figures: readonly Figure[]): string {
  return [...header(results), '', ...table(figures), ''].join('\n');
}

function header(results: RunResults): string[] {
  const { machine, config } = results;
  const command = results.command ?? `pnpm bench${config.mode === 'quick' ? ' -- --quick' : ''}`;
  const load = `${machine.loadAverageAtStart.toFixed(2)} at start, ${machine.loadAverageAtEnd?.toFixed(2) ?? '?'} at end`;
  return [
    `# DataDriver benchmarks (${config.mode} run${results.command?.includes('--only') || results.command?.includes('--stack') ? ', some parts' : ''})`,
    '',
    `Run ${results.startedAt}, ${results.durationSeconds?.toFixed(0) ?? '?'} s, by \`${command}\`.`,
    '',
    `- Machine: ${machine.cpuCount} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}`,
    `- 1-minute load average: ${load} (other work on the machine shows here)`,
    ...Object.entries(machine.backends).map(([name, version]) => `- ${name}: ${version}`),
    '- Figures in ms are medians and p99 (nearest rank) over n trials; times are wall-clock on this machine.',
  ];
}

function table(figures: readonly Figure[]): string[] {
  const rows = [
    '| Measurement | n | median | p99 | min | max | unit | goal / reference | met | note |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |',
  ];
  let section = '';
  for (const figure of figures) {
    if (figure.section !== section) {
      section = figure.section;
      rows.push(`| **${section}** | | | | | | | | | |`);
    }
    rows.push(row(figure));
  }
  return rows;
}

function row(figure: Figure): string {
  const { summary, unit } = figure;
  const met = figure.meetsGoal === undefined ? '' : figure.meetsGoal ? 'yes' : '**no**';
  const cells = summary
    ? [
        String(summary.n),
        ...[summary.median, summary.p99, summary.min, summary.max].map((v) => format(v, unit)),
      ]
    : ['', format(figure.value, unit), '', '', ''];
  return `| ${[figure.label, ...cells, unit, figure.goal ?? '', met, figure.note ?? ''].map(escapeCell).join(' | ')} |`;
}

function escapeCell(cell: string): string {
  return cell.replaceAll('|', '\\|');
}
