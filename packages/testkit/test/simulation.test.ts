/**
 * CI's budget of the deterministic cluster simulation: 1,000 seeds, each a random cluster,
 * workload and fault plan with every invariant checked after every step; zero violations.
 * A failure prints its seed, invariant and trace; `pnpm simulate --seed N --trace` replays it.
 */
import { describe, expect, it } from 'vitest';
import { describeFailure, explore, runSimulation } from '../src/simulation/index.js';

const FIRST_SEED = 1;
const RUNS = 1000;
const CHUNK = 100;

describe('the cluster simulation', () => {
  for (let from = FIRST_SEED; from < FIRST_SEED + RUNS; from += CHUNK) {
    it(`holds every invariant for seeds ${from} to ${from + CHUNK - 1}`, {
      timeout: 120_000,
    }, async () => {
      const { failures } = await explore(from, CHUNK);
      const first = failures[0];
      if (first) expect.fail(describeFailure(first));
    });
  }

  it('replays a seed exactly', async () => {
    const [first, second] = [await runSimulation(42), await runSimulation(42)];
    expect(second.trace.format()).toBe(first.trace.format());
    expect([...second.counts]).toEqual([...first.counts]);
    expect(first.trace.entries.length).toBeGreaterThan(100);
  });
});
