/**
 * The live hand-over and its two-process floor, interleaved so that a change of load on the
 * machine hits both alike: blocks of hops, each followed by as many floor samples spaced like
 * those hops, then a share of back-to-back floor samples.
 *
 * Why the spacing matters: on a small VM an idle vCPU wakes slowly, so a round trip after a
 * millisecond of idle costs several times one sent back to back. The hops are spaced by the
 * client's work between them (the kick, the close, the events, an earn, the next handshake);
 * a floor run back to back never lets a vCPU idle, so it is warmer than any hop. The
 * gap-matched floor waits, before each of its samples, as long as the bench waited between the
 * end of one hop and the start of the next (sample for sample), and the ratio is taken
 * against it. The back-to-back floor is kept beside it, as it was measured before.
 */
import type { Combo, RunningBackends } from '../backends.js';
import type { BenchConfig } from '../config.js';
import { type HandoverResult, Hops } from './handover.js';
import { counterOf } from './limit-backends.js';
import { ADAPTER_COMMANDS, type CallCounter, type Calls, per, sum } from './round-trips.js';
import { TwoProcessLimit } from './two-process-limit.js';

export interface TwoProcessFloors {
  /** Each sample run after an idle gap equal to one hop's spacing (ms). */
  readonly gapMatched: number[];
  /** Samples run one right after another (ms). */
  readonly backToBack: number[];
  /** Each recorded hop's spacing: the end of whatever ran before it to its start (ms). */
  readonly hopGaps: number[];
  /** The idle gap each gap-matched sample really had (a timer wakes a little late) (ms). */
  readonly floorGaps: number[];
  /** Hops per block; each block is followed by its floor samples. */
  readonly blockSize: number;
  /** Unrecorded samples run first, as many as the servers' warm-up hops. */
  readonly warmUpSamples: number;
}

export interface HandoverAndFloors {
  readonly handover: HandoverResult;
  readonly floors: TwoProcessFloors;
  /**
   * Commands per recorded hop, from both game servers, counted at the backend: Redis's (INFO
   * commandstats), PostgreSQL's statements on the all-PostgreSQL stack (pg_stat_statements).
   */
  readonly callsPerHop: Calls;
}

export async function measureHandoverAndFloors(
  combo: Combo,
  backends: RunningBackends,
  config: BenchConfig,
  progress: (message: string) => void,
): Promise<HandoverAndFloors> {
  const hops = await Hops.start(combo);
  const counter = await counterOf(combo, backends);
  try {
    const limit = await TwoProcessLimit.start(combo, backends);
    try {
      const { floors, calls } = await interleave(hops, limit, counter, config, progress);
      const callsPerHop = per(calls, config.handovers, ADAPTER_COMMANDS);
      return { handover: hops.result(), floors, callsPerHop };
    } finally {
      await limit.close();
    }
  } finally {
    counter.close();
    await hops.close();
  }
}

async function interleave(
  hops: Hops,
  limit: TwoProcessLimit,
  counter: CallCounter,
  config: BenchConfig,
  progress: (message: string) => void,
): Promise<{ floors: TwoProcessFloors; calls: Calls }> {
  await hops.warmUp(config.warmUpHops, config.warmUpPlayers, (done) => {
    if (done % WARM_UP_REPORT === 0) progress(`  ${done} of ${config.warmUpHops} warm-up hops`);
  });
  // Then the measured player's own, one at a time, as its recorded hops will run.
  for (let n = 0; n < config.warmUp; n++) await hops.hop(false);
  // The floor's processes run their code as many times as the servers ran theirs, so the JIT
  // has warmed both alike (back to back: only their code's warmth matters here, not spacing).
  const floorWarmUp = Math.max(config.warmUp, config.warmUpHops);
  for (let n = 0; n < floorWarmUp; n++) await limit.sample();
  const floors: TwoProcessFloors = {
    gapMatched: [],
    backToBack: [],
    hopGaps: [],
    floorGaps: [],
    blockSize: config.hopsPerBlock,
    warmUpSamples: floorWarmUp,
  };
  const blocks = Math.ceil(config.handovers / config.hopsPerBlock);
  const backToBackPerBlock = Math.ceil(config.limitSamples / blocks);
  let calls: Calls = {};
  for (let block = 0; block < blocks; block++) {
    const size = Math.min(config.hopsPerBlock, config.handovers - block * config.hopsPerBlock);
    const gaps: number[] = [];
    // Only the hops' commands: the floor's own go to the same Redis.
    const before = await counter.snapshot();
    let lastEnd = performance.now();
    for (let n = 0; n < size; n++) {
      const hop = await hops.hop(true);
      gaps.push(hop.startedAt - lastEnd);
      lastEnd = hop.endedAt;
    }
    calls = sum(calls, await counter.since(before));
    floors.hopGaps.push(...gaps);
    lastEnd = performance.now();
    for (const gap of gaps) {
      idleUntil(lastEnd + gap);
      floors.floorGaps.push(performance.now() - lastEnd);
      floors.gapMatched.push(await limit.sample());
      lastEnd = performance.now();
    }
    for (let n = 0; n < backToBackPerBlock; n++) floors.backToBack.push(await limit.sample());
  }
  return { floors, calls };
}

/** Warm-up hops between progress lines (a full run's warm-up takes minutes a stack). */
const WARM_UP_REPORT = 1000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Sleeps until `at` (performance.now() ms). Not a timer: Node's fire up to a millisecond early
 * or late (whole-ms loop time), a large error on gaps of a few ms. Not a spin either: the point
 * is to let the vCPUs idle. A futex wait takes a fractional timeout and really sleeps; nothing
 * runs on this thread meanwhile, and nothing has to: the floor's connections are quiet.
 */
function idleUntil(at: number): void {
  const ms = at - performance.now();
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}
