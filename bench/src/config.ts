/**
 * How much each measurement runs: the full run (`pnpm bench`) and the quick smoke run
 * (`pnpm bench -- --quick`, under two minutes, for CI; its figures prove only that every
 * measurement works).
 */
export interface BenchConfig {
  readonly mode: 'full' | 'quick';
  /** Live hand-overs per backend combination, after `warmUpHops` unrecorded ones. */
  readonly handovers: number;
  /**
   * Unrecorded hops before them. A server's hop code (the request, the kick, the release, the
   * reply, the take) runs once a hop, so it reaches V8's optimizing tier only after a thousand
   * hops or so, as on a game server that has run a while: between two processes on one Redis,
   * the hop's median was 1.52 to 1.76 ms after 100, 1.09 to 1.18 after 1,000, 1.03 to 1.04
   * after 2,000 and 0.94 to 1.05 after 3,000 (`pnpm bench -- --only handover --stack
   * all-redis --warm-up N`, 2026-12-05). The two-process floors run as many unrecorded samples
   * first, so their processes' JIT is as warm as the servers'.
   */
  readonly warmUpHops: number;
  /**
   * Players running the warm-up hops at once, each its own user on the same two servers: the
   * servers' hop code runs as often as one player's hops would run it this many times over, as
   * on a server with many players. The measured player then hops `warmUp` times on its own.
   */
  readonly warmUpPlayers: number;
  /** Unrecorded samples before the recorded ones of the floors, rejoins and gifts. */
  readonly warmUp: number;
  /**
   * Hops per block of the interleaved hand-over measurement: each block of hops is followed by
   * as many gap-matched floor samples and a share of the back-to-back ones.
   */
  readonly hopsPerBlock: number;
  /** Hand-overs from a stale (silent, still open) connection, one after another. */
  readonly staleHandovers: number;
  /** Samples of each leg of the physical limit, and back-to-back two-process floor samples. */
  readonly limitSamples: number;
  /** Unrecorded writes first: DynamoDB Local's JVM answers several times slower until warm. */
  readonly storeWarmUpWrites: number;
  /** Same-server rejoins of each kind. */
  readonly rejoins: number;
  /** Multiplies the seed's handoff constants for crash takeovers (1 = 3 s beat, 10 s TTL). */
  readonly crashScale: number;
  /** Crashes in all, run `crashesInParallel` at a time, each on its own server process. */
  readonly crashes: number;
  readonly crashesInParallel: number;
  /** Players in flight and the length of each throughput window (s), `throughputWindows` each. */
  readonly throughputPlayers: number;
  readonly throughputSeconds: number;
  readonly throughputWindows: number;
  /** One-second windows of the core-only cycle (memory store). */
  readonly coreCycleWindows: number;
  /** How long the idle servers are watched (s). */
  readonly idleSeconds: number;
  /**
   * Virtual minutes of each player-hour measurement (player-hour.ts), scaled to an hour: a
   * divisor of 60 that is a whole number of lock refreshes (60 s each at the defaults).
   */
  readonly playerHourMinutes: number;
  /** The peer's lease and heartbeat (ms), and its trials. */
  readonly peerLeaseMs: number;
  readonly peerHeartbeatMs: number;
  readonly peerCrashes: number;
  readonly peerHandovers: number;
  readonly peerLiveTrials: number;
  /**
   * Messages (all-Redis): gifts to an online player between processes, and as many floor
   * samples, after `warmUp` unrecorded ones of each.
   */
  readonly giftSamples: number;
  /** Loads of one player with and without an `onMessage`, each. */
  readonly messageLoadSamples: number;
  /** Concurrent senders to one popular profile, and how long they send (s). */
  readonly popularSenders: number;
  readonly popularSeconds: number;
}

export const FULL: BenchConfig = {
  mode: 'full',
  handovers: 200,
  // Game servers run warm in production: the first hops run while their JIT is still cold. V8
  // had optimized 261 functions in a server after 2,000 hops and 534 after 8,000, and was still
  // at it (scripts/jit-warmth.sh); the hop ran 0.14 to 0.52 ms faster after 8,000 (README).
  // Eight players at once run them in about 13 s on all-Redis, where one took 123 s; 32,000 by
  // eight read no better against the floor (README), and the floors' warm-up grows with them.
  warmUpHops: 8000,
  warmUpPlayers: 8,
  warmUp: 100,
  hopsPerBlock: 20,
  staleHandovers: 20,
  limitSamples: 1000,
  storeWarmUpWrites: 3000,
  rejoins: 200,
  crashScale: 1,
  crashes: 24,
  crashesInParallel: 8,
  throughputPlayers: 200,
  throughputSeconds: 7,
  throughputWindows: 3,
  coreCycleWindows: 9,
  idleSeconds: 60,
  playerHourMinutes: 60,
  peerLeaseMs: 10_000,
  peerHeartbeatMs: 3_000,
  peerCrashes: 24,
  peerHandovers: 24,
  peerLiveTrials: 4,
  giftSamples: 300,
  messageLoadSamples: 500,
  popularSenders: 100,
  popularSeconds: 7,
};

export const QUICK: BenchConfig = {
  mode: 'quick',
  handovers: 20,
  warmUpHops: 3,
  warmUpPlayers: 1,
  warmUp: 3,
  hopsPerBlock: 10,
  staleHandovers: 3,
  limitSamples: 100,
  storeWarmUpWrites: 100,
  rejoins: 20,
  crashScale: 0.1,
  crashes: 4,
  crashesInParallel: 4,
  throughputPlayers: 50,
  throughputSeconds: 0.5,
  throughputWindows: 1,
  coreCycleWindows: 2,
  idleSeconds: 3,
  playerHourMinutes: 10,
  peerLeaseMs: 1_000,
  peerHeartbeatMs: 300,
  peerCrashes: 4,
  peerHandovers: 4,
  peerLiveTrials: 2,
  giftSamples: 20,
  messageLoadSamples: 20,
  popularSenders: 20,
  popularSeconds: 0.5,
};

/**
 * The bench's game servers (and in-process servers) run with the handoff's message budgets
 * (MessagingService's: a server accepts 600 messages a minute) times this. One player hopping
 * back and forth every ~15 ms is about 70 messages a second for each server, and a spent
 * budget drops a request (the joiner then waits seconds for presence reads): a flood guard
 * the latency measurements must not meet. Hops that met it anyway are counted in the notes.
 */
export const MESSAGE_LIMITS_TIMES = 100;
