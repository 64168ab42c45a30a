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

/**
 * 13.5 s: the shortest run in which any of seeds 1 to 400 meets every kind of fault (the quiet
 * start and end, a 4.5 s pause, four outages of 0.6 to 1.5 s and the gaps between them); these
 * two do, each with its kill early (`test/schedule.test.ts` checks it).
 */
const SMALL = ['--duration', '13.5', '--players', '10', '--rate', '5'];

export const SHORT_REDIS_RUN = cli('--stack', 'redis', '--seed', '399', '--servers', '3', ...SMALL);
/** Two servers: each loads the AWS SDK, seconds of CPU apiece on a shared CI machine. */
export const SHORT_DYNAMODB_RUN = cli(
  '--stack',
  'dynamodb',
  '--seed',
  '33',
  '--servers',
  '2',
  ...SMALL,
);

/** The load run in small: 4 servers on one Redis, 100 players, no nemesis. */
export const TINY_LOAD_RUN = cli(
  ...['--load', '--seed', '1', '--duration', '8'],
  ...['--servers', '4', '--players', '100', '--rate', '20'],
);
