/**
 * The checker against a backend without durability: Redis with persistence off, restarted
 * mid-run, forgets every acknowledged save, and the checker must say so. The same schedule on
 * a Redis that keeps its data passes (the short runs).
 */
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { runChaos } from '../src/run/chaos-run.js';
import { SHORT_REDIS_RUN } from './support/short-runs.js';

it('reports the acknowledged saves a Redis without persistence lost in a restart', async () => {
  const report = await runChaos({
    ...SHORT_REDIS_RUN,
    seed: 11,
    durationMs: 7_000,
    servers: 2,
    actions: ['restart-backend'],
    durable: false,
  });
  expect(Object.keys(report.figures.nemesis)).toEqual(['restart-backend']);
  const lost = report.violations.filter((violation) => violation.check === 'lost-save');
  expect(lost.length).toBeGreaterThan(0);
  expect(lost[0]?.detail).toMatch(
    /read \d+ in a load started at \d+, after .*save of \d+ was acknowledged|the store holds/,
  );
  rmSync(report.historyDir, { recursive: true, force: true });
});
