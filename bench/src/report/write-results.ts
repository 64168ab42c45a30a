/** Writes results.md and results.json into the output folder. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResults } from '../run.js';
import { figuresOf } from './figures.js';
import { markdownReport } from './markdown.js';

export async function writeResults(results: RunResults, outDir: string): Promise<string[]> {
  const figures = figuresOf(results);
  await mkdir(outDir, { recursive: true });
  const markdown = join(outDir, 'results.md');
  const json = join(outDir, 'results.json');
  await writeFile(markdown, markdownReport(results, figures));
  const { config, machine, startedAt, durationSeconds } = results;
  const document = { startedAt, durationSeconds, config, machine, figures };
  await writeFile(json, `${JSON.stringify(document, null, 2)}\n`);
  return [markdown, json];
}
