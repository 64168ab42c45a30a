/**
 * One bench run: the backends start once, the latency measurements run one after another (so
 * they do not slow each other down), then the measurements that mostly wait on timers (crash
 * takeovers, the peer's leases, idle servers) run side by side.
 */
import { loadavg } from 'node:os';
import {
  type Combo,
  type ComboId,
  combos,
  type RunningBackends,
  startBackends,
} from './backends.js';
import type { BenchConfig } from './config.js';
import { describeMachine, type Machine } from './machine.js';
import { measureApart } from './measure/apart.js';
import type { CoreCycle } from './measure/core-cycle.js';
import { type Crash, measureCrashTakeover } from './measure/crash-takeover.js';
import type { HandoverResult } from './measure/handover.js';
import { measureHandoverAndFloors, type TwoProcessFloors } from './measure/handover-floors.js';
import { type HandoverProfile, profileHandover } from './measure/handover-profile.js';
import { type IdleCost, measureIdleCost } from './measure/idle-cost.js';
import { type GiftResult, measureGift } from './measure/message-gift.js';
import { MessageHolder } from './measure/message-holder.js';
import { type LoadCostResult, measureLoadCost } from './measure/message-load-cost.js';
import { measurePopular, type PopularResult } from './measure/message-popular.js';
import { type LimitResult, measureLimit } from './measure/physical-limit.js';
import { measurePlayerHours, type PlayerHour } from './measure/player-hour.js';
import {
  measurePostgresThroughput,
  type PostgresThroughputResult,
} from './measure/postgres-throughput.js';
import { measureRejoin, type RejoinResult } from './measure/rejoin.js';
import type { Calls } from './measure/round-trips.js';
import { measureStaleHandover, type StaleHandover } from './measure/stale-handover.js';
import type { ThroughputResult } from './measure/throughput.js';
import { allSettled } from './parallel.js';
import { measurePeerHandovers, type PeerResult } from './peer/peer-measure.js';

export interface RunResults {
  readonly config: BenchConfig;
  readonly machine: Machine;
  readonly startedAt: string;
  durationSeconds?: number;
  /** The command that ran it, as results.md names it (`pnpm bench -- --only handover`). */
  command?: string;
  readonly combos: readonly Combo[];
  readonly handover: Partial<Record<ComboId, HandoverResult>>;
  readonly limit: Partial<Record<ComboId, LimitResult>>;
  readonly profile: Partial<Record<ComboId, HandoverProfile>>;
  readonly twoProcessLimit: Partial<Record<ComboId, TwoProcessFloors>>;
  /**
   * Commands per hand-over between the game-server processes, counted by Redis (by PostgreSQL
   * on the all-PostgreSQL stack).
   */
  readonly hopCalls: Partial<Record<ComboId, Calls>>;
  rejoin?: RejoinResult;
  throughput?: ThroughputResult;
  throughputPipelined?: ThroughputResult;
  /** The same cycle on one PostgreSQL, against a naive `SELECT ... FOR UPDATE` lock. */
  throughputPostgres?: PostgresThroughputResult;
  coreCycle?: CoreCycle;
  /** Messages, all-Redis: a gift to an online player, a load's inbox check, a popular inbox. */
  messages?: MessageResults;
  crashes?: Crash[];
  stale?: StaleHandover[];
  idle?: IdleCost[];
  playerHours?: PlayerHour[];
  peer?: PeerResult;
}

export interface MessageResults {
  readonly gift: GiftResult;
  readonly loadCost: LoadCostResult;
  readonly popular: PopularResult;
  /** The same sends from one sender, for reference: no contention on the inbox. */
  readonly popularOne: PopularResult;
}

export type Progress = (message: string) => void;

/** The parts of a run, in the order they run; `pnpm bench -- --only <part,...>` picks some. */
export const PARTS = [
  'handover',
  'stale',
  'rejoin',
  'throughput',
  'messages',
  'waits',
  'player-hour',
] as const;
export type Part = (typeof PARTS)[number];

export async function runBench(
  config: BenchConfig,
  progress: Progress,
  parts: ReadonlySet<Part> = new Set(PARTS),
  stacks?: ReadonlySet<ComboId>,
): Promise<RunResults> {
  const started = performance.now();
  progress('starting Redis, DynamoDB Local, the Pub/Sub emulator and PostgreSQL');
  const backends = await startBackends();
  try {
    const machine = await describeMachine(backends);
    const results: RunResults = {
      config,
      machine,
      startedAt: new Date().toISOString(),
      combos: combos(backends),
      handover: {},
      limit: {},
      profile: {},
      twoProcessLimit: {},
      hopCalls: {},
    };
    const allRedis = results.combos.find((combo) => combo.id === 'all-redis')!;
    if (parts.has('handover')) await handovers(results, backends, progress, stacks);
    if (parts.has('stale')) {
      progress('live hand-over from a stale connection, all-Redis');
      results.stale = await measureStaleHandover(allRedis, config);
    }
    if (parts.has('rejoin')) {
      progress('same-server rejoins');
      results.rejoin = await measureRejoin(backends.redis.url, config);
    }
    if (parts.has('throughput')) await throughputs(results, backends, progress, stacks);
    if (parts.has('messages') && (!stacks || stacks.has('all-redis'))) {
      results.messages = await messages(backends.redis.url, config, progress);
    }
    if (parts.has('waits')) await waits(results, backends, allRedis, progress);
    if (parts.has('player-hour')) {
      progress('a player-hour on Redis and DynamoDB, idle and active (virtual clock)');
      results.playerHours = await measurePlayerHours(backends, config.playerHourMinutes);
    }
    machine.loadAverageAtEnd = loadavg()[0]!;
    results.durationSeconds = (performance.now() - started) / 1000;
    return results;
  } finally {
    await backends.stop();
  }
}

async function handovers(
  results: RunResults,
  backends: RunningBackends,
  progress: Progress,
  stacks: ReadonlySet<ComboId> | undefined,
) {
  const { config } = results;
  for (const combo of results.combos) {
    if (stacks && !stacks.has(combo.id)) continue;
    // The limit first: its thousands of calls also warm the backends (DynamoDB Local's JVM
    // answers several times slower until its JIT has run), so the hand-over meets them warm.
    progress(`physical limit, ${combo.label}`);
    results.limit[combo.id] = await measureLimit(combo, backends, config);
    progress(`live hand-over and its floors between two processes, ${combo.label}`);
    const measured = await measureHandoverAndFloors(combo, backends, config, progress);
    results.handover[combo.id] = measured.handover;
    results.twoProcessLimit[combo.id] = measured.floors;
    results.hopCalls[combo.id] = measured.callsPerHop;
    progress(`hand-over profile in one process, ${combo.label}`);
    results.profile[combo.id] = await profileHandover(combo, backends, config);
  }
}

/** On Redis, then on PostgreSQL; `--stack` picks one (all-redis, all-postgres). */
async function throughputs(
  results: RunResults,
  backends: RunningBackends,
  progress: Progress,
  stacks: ReadonlySet<ComboId> | undefined,
) {
  if (!stacks || stacks.has('all-redis'))
    await redisThroughputs(results, backends.redis.url, progress);
  if (!stacks || stacks.has('all-postgres')) {
    progress('throughput on PostgreSQL against a naive SELECT ... FOR UPDATE lock');
    results.throughputPostgres = await measurePostgresThroughput(
      backends.postgres.url,
      results.config,
    );
  }
}

async function redisThroughputs(results: RunResults, redisUrl: string, progress: Progress) {
  // Each in a node process of its own: no heap but the measurement's (measure/apart.ts).
  const { config } = results;
  progress('throughput against the naive lock');
  results.throughput = await measureApart('throughput', {
    redisUrl,
    config,
    clientOptions: {},
  });
  progress('throughput again, both with auto-pipelining');
  results.throughputPipelined = await measureApart('throughput', {
    redisUrl,
    config,
    clientOptions: { enableAutoPipelining: true },
  });
  progress("core's own CPU per cycle, on the memory store");
  const { throughputPlayers: players, coreCycleWindows: windows } = config;
  results.coreCycle = await measureApart('core-cycle', {
    players,
    windows,
    windowSeconds: 1,
  });
}

/** All-Redis: the message figures (message-gift.ts, message-load-cost.ts, message-popular.ts). */
async function messages(
  redisUrl: string,
  config: BenchConfig,
  progress: Progress,
): Promise<MessageResults> {
  // One holder process for the gift and the popular profile: a process start is seconds here.
  const tag = `bench-messages-${process.pid}-${Date.now()}`;
  const holder = await MessageHolder.start({
    mode: 'driver',
    redisUrl,
    jobId: `${tag}-holder`,
    key: `${tag}-player`,
    topic: `${tag}-unused`,
  });
  let gift: GiftResult;
  let popular: PopularResult;
  let popularOne: PopularResult;
  try {
    progress('a gift to an online player between processes, against its floor');
    gift = await measureGift(redisUrl, holder, config.giftSamples, config.warmUp);
    progress(`sends to one popular profile from ${config.popularSenders} senders`);
    popular = await measurePopular(redisUrl, holder, config.popularSenders, config.popularSeconds);
    progress('the same from one sender, no contention');
    popularOne = await measurePopular(redisUrl, holder, 1, config.popularSeconds);
  } finally {
    await holder.stop();
  }
  progress("a load's inbox check: load + release with and without onMessage");
  const loadCost = await measureLoadCost(redisUrl, config, config.messageLoadSamples);
  return { gift, loadCost, popular, popularOne };
}

/** The measurements that mostly wait on timers, side by side. */
async function waits(
  results: RunResults,
  backends: RunningBackends,
  allRedis: Combo,
  progress: Progress,
) {
  const { config } = results;
  progress("the peer's lease lock: leave-and-join hand-overs");
  const peer = await measurePeerHandovers(backends.dynamo.endpoint, config);
  progress('crash takeovers, the peer and idle servers, side by side');
  // Every part settles before a failure propagates: the backends stop only once no client
  // of any part is still talking to them.
  [results.crashes, results.peer, results.idle] = await allSettled([
    measureCrashTakeover(allRedis, config),
    peer.waits(),
    allSettled([1, 10].map((drivers) => measureIdleCost(backends.redis.url, drivers, config))),
  ]);
}
