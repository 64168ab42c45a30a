/**
 * The short seeded runs `pnpm test` makes, built by the CLI's own parser: the command a
 * failure prints (`pnpm chaos --stack redis --seed 3 ...`) replays the very schedule.
 */
import { parseCliArgs } from '../../src/cli-args.js';
import type { RunOptions } from '../../src/run/chaos-run.js';

function cli(...argv: string[]): RunOptions {
  const run = parseCliArgs(argv, () => 1).runs[0];
  if (!run) throw new Error(`no run for ${argv.join(' ')}`);
  return run;
}

/** 16 s: the shortest that meets every kind of fault with these seeds. */
const SMALL = ['--duration', '16', '--players', '10', '--rate', '5'];

export const SHORT_REDIS_RUN = cli('--stack', 'redis', '--seed', '3', '--servers', '3', ...SMALL);
/** Two servers: each loads the AWS SDK, seconds of CPU apiece on a shared CI machine. */
export const SHORT_DYNAMODB_RUN = cli(
  '--stack',
  'dynamodb',
  '--seed',
  '5',
  '--servers',
  '2',
  ...SMALL,
);

/** The load run in small: 4 servers on one Redis, 100 players, no nemesis. */
export const TINY_LOAD_RUN = cli(
  ...['--load', '--seed', '1', '--duration', '8'],
  ...['--servers', '4', '--players', '100', '--rate', '20'],
);
