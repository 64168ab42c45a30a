/**
 * `node scripts/mutation-survivors.mjs <scope>`: the score and the surviving mutants of the
 * last `pnpm mutate` run of that scope (reports/mutation/<scope>.json), one line each, for
 * mutation/REPORT.md.
 *
 * `node scripts/mutation-survivors.mjs --events <dir>`: the same for a run, finished or not,
 * that had the `event-recorder` reporter on (`--reporters clear-text,json,event-recorder`
 * writes each mutant's result to reports/mutation/events as it is tested), so a run stopped
 * before its end still says what it tested.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each mutant tested, with its file's source: from the JSON report or the recorded events. */
function mutantsOf(args) {
  if (args[0] === '--events') {
    const dir = args[1] ?? join('reports', 'mutation', 'events');
    const sources = new Map();
    return readdirSync(dir)
      .filter((name) => name.endsWith('-onMutantTested.json'))
      .sort()
      .map((name) => {
        const mutant = JSON.parse(readFileSync(join(dir, name), 'utf8'));
        if (!sources.has(mutant.fileName)) {
          sources.set(mutant.fileName, readFileSync(mutant.fileName, 'utf8'));
        }
        const file = relative(process.cwd(), mutant.fileName);
        return { file, source: sources.get(mutant.fileName), mutant };
      });
  }
  const scope = args[0] ?? 'flows';
  const report = JSON.parse(readFileSync(join('reports', 'mutation', `${scope}.json`), 'utf8'));
  return Object.entries(report.files).flatMap(([file, { source, mutants }]) =>
    mutants.map((mutant) => ({ file, source, mutant })),
  );
}

const args = process.argv.slice(2);
const tally = new Map();
const survivors = [];
for (const { file, source, mutant } of mutantsOf(args)) {
  tally.set(mutant.status, (tally.get(mutant.status) ?? 0) + 1);
  if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
  const { line, column } = mutant.location.start;
  const original = source.split('\n')[line - 1].trim();
  const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ');
  survivors.push(
    `${file}:${line}:${column} ${mutant.mutatorName} (${mutant.status}): \`${original}\` -> \`${replacement}\``,
  );
}
const count = (status) => tally.get(status) ?? 0;
const detected = count('Killed') + count('Timeout');
const valid = detected + count('Survived') + count('NoCoverage');
console.log(
  `${args.join(' ') || 'flows'}: ${valid} mutants, ${count('Killed')} killed, ${count('Timeout')} timed out, ${count('Survived')} survived, ${count('NoCoverage')} without coverage, ${count('CompileError') + count('RuntimeError')} invalid`,
);
console.log(`score ${((100 * detected) / valid).toFixed(2)} %`);
for (const line of survivors) console.log(line);
