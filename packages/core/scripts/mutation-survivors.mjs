/**
 * `node scripts/mutation-survivors.mjs <scope>`: the score and the surviving mutants of the
 * last `pnpm mutate` run of that scope (reports/mutation/<scope>.json), one line each, for
 * mutation/REPORT.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const scope = process.argv[2] ?? 'flows';
const report = JSON.parse(readFileSync(join('reports', 'mutation', `${scope}.json`), 'utf8'));
const tally = new Map();
const survivors = [];
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  const lines = source.split('\n');
  for (const mutant of mutants) {
    tally.set(mutant.status, (tally.get(mutant.status) ?? 0) + 1);
    if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
    const { line, column } = mutant.location.start;
    const original = lines[line - 1].trim();
    const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ');
    survivors.push(
      `${file}:${line}:${column} ${mutant.mutatorName} (${mutant.status}): \`${original}\` -> \`${replacement}\``,
    );
  }
}
const count = (status) => tally.get(status) ?? 0;
const detected = count('Killed') + count('Timeout');
const valid = detected + count('Survived') + count('NoCoverage');
console.log(
  `scope ${scope}: ${valid} mutants, ${count('Killed')} killed, ${count('Timeout')} timed out, ${count('Survived')} survived, ${count('NoCoverage')} without coverage, ${count('CompileError') + count('RuntimeError')} invalid`,
);
console.log(`score ${((100 * detected) / valid).toFixed(2)} %`);
for (const line of survivors) console.log(line);
