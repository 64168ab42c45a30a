import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from '../src/cli-args.js';
import { ALL_ACTIONS } from '../src/run/presets.js';

const seed = () => 42;

describe('parseCliArgs', () => {
  it('runs both stacks under the nemesis by default, with a drawn seed', () => {
    const { runs, load } = parseCliArgs([], seed);
    expect(load).toBe(false);
    expect(runs.map((run) => run.kind)).toEqual(['redis', 'dynamodb']);
    expect(runs[0]).toMatchObject({ seed: 42, durationMs: 60_000, actions: ALL_ACTIONS });
  });

  it('takes the long run of the README: --duration 600 --seed N', () => {
    const { runs } = parseCliArgs(['--duration', '600', '--seed', '7', '--stack', 'redis'], seed);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ kind: 'redis', seed: 7, durationMs: 600_000 });
  });

  it('--load: 8 servers on one Redis, thousands of players, every hop live, no nemesis', () => {
    const { runs, load } = parseCliArgs(['--load'], seed);
    expect(load).toBe(true);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      kind: 'redis',
      servers: 8,
      players: 2_000,
      liveShare: 1,
      actions: [],
    });
  });

  it('--help runs nothing, and its text names every option', () => {
    const args = parseCliArgs(['--stack', 'redis', '--help'], seed);
    expect(args).toMatchObject({ help: true, runs: [] });
    for (const option of [
      '--stack',
      '--seed',
      '--duration',
      '--servers',
      '--players',
      '--rate',
      '--report',
    ]) {
      expect(USAGE).toContain(option);
    }
  });

  it('refuses what it cannot run, saying what it wants', () => {
    expect(() => parseCliArgs(['--seed', '1.5'], seed)).toThrow(
      '--seed must be a positive integer, got 1.5',
    );
    expect(() => parseCliArgs(['--stack', 'mongo'], seed)).toThrow(
      '--stack must be redis, dynamodb or both',
    );
    expect(() => parseCliArgs(['--duration'], seed)).toThrow('--duration needs a value');
    expect(() => parseCliArgs(['--sed', '5'], seed)).toThrow('unknown option --sed');
  });
});
