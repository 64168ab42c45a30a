/**
 * CI's budget of the deterministic cluster simulation: 1,000 seeds, each a random cluster,
 * workload and fault plan with every invariant checked after every step; zero violations.
 * A failure prints its seed, invariant and trace; `pnpm simulate --seed N --trace` replays it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addCounts } from '../src/simulation/explore.js';
import { chunksDone, chunksOf } from '../src/simulation/explore-parallel.js';
import { flowsNeverReached } from '../src/simulation/flows.js';
import { describeFailure, explore, runSimulation } from '../src/simulation/index.js';

const FIRST_SEED = 1;
const RUNS = 1000;
const CHUNK = 100;

/** What every chunk's runs did, by name: the flows they reached among them. */
const counts = new Map<string, number>();

describe('the cluster simulation', () => {
  for (let from = FIRST_SEED; from < FIRST_SEED + RUNS; from += CHUNK) {
    it(`holds every invariant for seeds ${from} to ${from + CHUNK - 1}`, {
      timeout: 120_000,
    }, async () => {
      const summary = await explore(from, CHUNK);
      addCounts(counts, summary.counts);
      const first = summary.failures[0];
      if (first) expect.fail(describeFailure(first));
    });
  }

  it('reaches every flow of flows.ts within the budget', () => {
    expect(flowsNeverReached(counts)).toEqual([]);
  });

  it('replays a seed exactly', async () => {
    const [first, second] = [await runSimulation(42), await runSimulation(42)];
    expect(second.trace.format()).toBe(first.trace.format());
    expect([...second.counts]).toEqual([...first.counts]);
    expect(first.trace.entries.length).toBeGreaterThan(100);
  });
});

describe("the exploration's chunks", () => {
  it('cover the range once, the last one short', () => {
    expect(chunksOf(5, 25, 10)).toEqual([
      { from: 5, runs: 10 },
      { from: 15, runs: 10 },
      { from: 25, runs: 5 },
    ]);
  });

  it('are read back from a log as done, so --resume skips them', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'simulate-')), 'explore.log');
    writeFileSync(
      log,
      [
        'chunk 1-500: 0 violations, 20.1 s',
        'seed 612: VIOLATION x: y',
        'chunk 1001-1500: 1 violations, 19.0 s',
      ].join('\n'),
    );
    expect([...chunksDone(log)]).toEqual(['1-500', '1001-1500']);
  });
});
