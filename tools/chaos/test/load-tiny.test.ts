/**
 * The load run in small (`pnpm chaos:load` is the same with 8 servers and 2,000 players for
 * minutes): server processes on one Redis, players hopping at a fixed rate while still
 * connected to their old server, hand-overs measured, and no invariant violated.
 */
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { textReport } from '../src/report.js';
import { runChaos } from '../src/run/chaos-run.js';
import { TINY_LOAD_RUN } from './support/short-runs.js';

it('hands players over between servers with no violation, and reports hand-over times', async () => {
  const report = await runChaos(TINY_LOAD_RUN);
  expect(report.violations, textReport(report, 'chaos:load')).toEqual([]);
  const { figures } = report;
  expect(figures.hopsSent).toBe(160);
  expect(figures.nemesis).toEqual({});
  expect(figures.handOverMs.count).toBeGreaterThan(20);
  expect(figures.handOverMs.p99).toBeGreaterThanOrEqual(figures.handOverMs.p50 ?? 0);
  console.info(textReport(report, 'chaos:load'));
  rmSync(report.historyDir, { recursive: true, force: true });
});
