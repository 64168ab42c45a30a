/**
 * Where a server's backends are: chosen by environment (`env`, see backends.ts), or all three
 * ports on the PostgreSQL at `DATABASE_URL` (`--stack postgres`).
 */
export type ServerStack = 'env' | 'postgres';

/**
 * Command-line options of a game server: `--port 7001 --job server-a --scale 1`, `--stack
 * postgres`, the demo and
 * test tools `--faults`, `--lock-ttl <s>`, `--lock-skew <s>`, `--no-handoff`, and the bench's
 * `--high-res-clock`, `--batch-events`, `--message-limits-times <k>` and `--no-on-message`.
 */
export interface ServerArgs {
  readonly port: number;
  readonly jobId: string;
  /** Multiplies the handoff's constants and the driver's waits (1 = the seed's values). */
  readonly scale: number;
  /** `--stack postgres`: every port on PostgreSQL; otherwise backends.ts reads the environment. */
  readonly stack: ServerStack;
  /** Serves `POST /faults` (see fault-controls.ts): a demo and test tool, off unless asked for. */
  readonly faults: boolean;
  /** Overrides the scaled lockTtlSeconds, so a stale-by-age lock can be shown in seconds. */
  readonly lockTtlSeconds: number | undefined;
  /** Overrides the scaled lockSkewSeconds, likewise. */
  readonly lockSkewSeconds: number | undefined;
  /**
   * `--no-handoff`: the driver's `handoff: false`, as an older build runs: no subscription, no
   * presence beat, locks without the presence flag.
   */
  readonly handoff: boolean;
  /**
   * Event times and waits on a sub-millisecond clock (still the wall clock), so a hand-over's
   * steps between two servers resolve below a millisecond: the bench asks for it. Off by default:
   * whole milliseconds read better in the Try it page's and the bot's reports.
   */
  readonly highResClock: boolean;
  /** `GET /events` ships in batches once the server is quiet, off the hand-over (the bench). */
  readonly batchEvents: boolean;
  /**
   * Multiplies the handoff's message budgets (MessagingService's: 600 received a minute): the
   * bench hops one player back and forth far faster than that, and must not meet the budget.
   */
  readonly messageLimitsTimes: number | undefined;
  /**
   * `--no-on-message`: the driver runs without the game's `onMessage`, so a load does not read
   * the profile's inbox (a grant is queued, and applied by a server with one). The bench's
   * hand-over and crash figures are measured so, as before messages; its message figures
   * measure what the inbox check costs.
   */
  readonly onMessage: boolean;
  /**
   * `--hand-over-locks`: the driver's `handOverLocks`, with the handoff signing its messages
   * (the key from `HANDOFF_SIGNING_KEY`, or the example's own): a release writes the lock of
   * the server that asked for it, three store round trips per hand-over instead of four.
   */
  readonly handOverLocks: boolean;
}

function positive(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new Error(`--${name} must be a positive number, got ${raw}`);
  }
  return value;
}

export function parseArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ServerArgs {
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const port = Number(value('port') ?? env.PORT ?? 7001);
  const scale = Number(value('scale') ?? env.DD_SCALE ?? 1);
  const jobId = value('job') ?? env.JOB_ID ?? `server-${port}`;
  if (!Number.isInteger(port) || port < 0)
    throw new Error(`--port must be a port number, got ${value('port')}`);
  if (!(scale > 0)) throw new Error(`--scale must be a positive number, got ${value('scale')}`);
  const stack = value('stack') ?? 'env';
  if (stack !== 'env' && stack !== 'postgres')
    throw new Error(`--stack must be postgres (or env, the default), got ${stack}`);
  return {
    port,
    jobId,
    scale,
    stack,
    faults: argv.includes('--faults'),
    lockTtlSeconds: positive('lock-ttl', value('lock-ttl')),
    lockSkewSeconds: positive('lock-skew', value('lock-skew')),
    handoff: !argv.includes('--no-handoff'),
    highResClock: argv.includes('--high-res-clock'),
    batchEvents: argv.includes('--batch-events'),
    messageLimitsTimes: positive('message-limits-times', value('message-limits-times')),
    onMessage: !argv.includes('--no-on-message'),
    handOverLocks: argv.includes('--hand-over-locks'),
  };
}
