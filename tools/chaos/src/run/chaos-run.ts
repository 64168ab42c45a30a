/**
 * One run: a stack started, the seeded schedule played (the workload and the nemesis side by
 * side), the servers stopped cleanly, the stored counters read, and the histories checked.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckResult, checkHistory } from '../check/check-history.js';
import { HistoryWriter, readHistories } from '../history.js';
import { type PlanOptions, planRun } from '../schedule.js';
import { runNemesis } from './nemesis.js';
import { type JoinBound, joinBoundOf, pauseMsOf } from './presets.js';
import { type ServerTimings, Stack, type StackKind } from './stack.js';
import { runWorkload } from './workload.js';

export interface RunOptions extends Omit<PlanOptions, 'pauseMs'> {
  readonly kind: StackKind;
  readonly timings: ServerTimings;
  /** Where the histories go (a new temporary directory when unset); kept after the run. */
  readonly historyDir?: string;
  /** False: Redis without persistence (the checker's own test of a backend that loses data). */
  readonly durable?: boolean;
  /** A DynamoDB Local already running (a test run's) for the `dynamodb` stack; else its own. */
  readonly dynamoEndpoint?: string;
}

export interface RunReport extends CheckResult {
  readonly options: RunOptions;
  readonly historyDir: string;
  readonly joinBound: JoinBound;
  readonly wallMs: number;
  /** Where the wall time went: starting the stack, playing the schedule, stopping and reading. */
  readonly phasesMs: {
    /** When the backends, and the servers, were ready: they start side by side. */
    readonly start: { readonly backends: number; readonly servers: number };
    readonly schedule: number;
    readonly stop: number;
  };
}

export async function runChaos(options: RunOptions): Promise<RunReport> {
  const historyDir =
    options.historyDir ?? mkdtempSync(join(tmpdir(), `chaos-${options.kind}-${options.seed}-`));
  mkdirSync(historyDir, { recursive: true });
  const began = Date.now();
  const plan = planRun({ ...options, pauseMs: pauseMsOf(options.timings) });
  const runner = new HistoryWriter(join(historyDir, 'runner.jsonl'));
  const stack = await Stack.start({
    kind: options.kind,
    servers: options.servers,
    historyDir,
    timings: options.timings,
    durable: options.durable ?? true,
    history: runner,
    ...(options.dynamoEndpoint ? { dynamoEndpoint: options.dynamoEndpoint } : {}),
  }).catch((error: unknown) => {
    runner.close();
    throw error;
  });
  const start = Date.now();
  let scheduled = start;
  try {
    await Promise.all([
      runWorkload(stack, plan.hops, start, runner),
      runNemesis(stack, plan.nemesis, start, runner),
    ]);
    scheduled = Date.now();
    await stack.stopServers();
    const players = [...new Set(plan.hops.map((hop) => hop.player))];
    for (const [key, value] of await stack.storedCounters(players)) {
      runner.write({ kind: 'final', at: Date.now(), key, value });
    }
  } finally {
    await stack.stop();
    runner.close();
  }
  const joinBound = joinBoundOf(options.timings);
  return {
    ...checkHistory(readHistories(historyDir), { joinBound }),
    options,
    historyDir,
    joinBound,
    wallMs: Date.now() - began,
    phasesMs: {
      start: { ...stack.readyMs },
      schedule: scheduled - start,
      stop: Date.now() - scheduled,
    },
  };
}
