import { describe, expect, it } from 'vitest';
import { ALL_ACTIONS, pauseMsOf } from '../src/run/presets.js';
import { type PlanOptions, planRun } from '../src/schedule.js';
import { SHORT_DYNAMODB_RUN, SHORT_REDIS_RUN } from './support/short-runs.js';

const OPTIONS: PlanOptions = {
  seed: 3,
  durationMs: 16_000,
  servers: 3,
  players: 10,
  hopsPerSecond: 5,
  liveShare: 0.5,
  actions: ALL_ACTIONS,
  nemesisGapMs: [300, 800],
  outageMs: [600, 1_500],
  pauseMs: 4_500,
};

describe('planRun', () => {
  it('draws the same schedule from the same seed, and another from another seed', () => {
    expect(planRun(OPTIONS)).toEqual(planRun(OPTIONS));
    expect(planRun({ ...OPTIONS, seed: 4 })).not.toEqual(planRun(OPTIONS));
  });

  it('hops at the fixed rate, every player first, never to the server the player is on', () => {
    const { hops } = planRun(OPTIONS);
    expect(hops).toHaveLength(80);
    expect(hops.map((hop) => hop.atMs).slice(0, 3)).toEqual([0, 200, 400]);
    expect(hops.slice(0, 10).map((hop) => hop.player)).toEqual(
      Array.from({ length: 10 }, (_, index) => `player-${index}`),
    );
    const where = new Map<string, number>();
    for (const hop of hops) {
      expect(hop.to).not.toBe(where.get(hop.player));
      if (!where.has(hop.player)) expect(hop.mode).toBe('clean');
      where.set(hop.player, hop.to);
    }
  });

  it('meets every nemesis action in a short run, one fault at a time, all healed before the end', () => {
    const { nemesis } = planRun(OPTIONS);
    expect(new Set(nemesis.map((step) => step.action))).toEqual(new Set(ALL_ACTIONS));
    for (const [index, step] of nemesis.entries()) {
      const next = nemesis[index + 1];
      if (next) expect(next.atMs).toBeGreaterThan(step.atMs + step.durationMs);
      expect(step.atMs + step.durationMs).toBeLessThanOrEqual(OPTIONS.durationMs);
      if (step.action === 'pause') expect(step.durationMs).toBe(OPTIONS.pauseMs);
    }
  });

  it.each([
    ['Redis', SHORT_REDIS_RUN],
    ['DynamoDB', SHORT_DYNAMODB_RUN],
  ])(
    'the short %s run in pnpm test meets every kind of fault, its kill among the first two',
    (_name, run) => {
      const { nemesis } = planRun({ ...run, pauseMs: pauseMsOf(run.timings) });
      expect(new Set(nemesis.map((step) => step.action))).toEqual(new Set(ALL_ACTIONS));
      expect(nemesis.findIndex((step) => step.action === 'kill')).toBeLessThan(2);
    },
  );

  it('plans no fault without actions', () => {
    expect(planRun({ ...OPTIONS, actions: [] }).nemesis).toEqual([]);
  });
});
