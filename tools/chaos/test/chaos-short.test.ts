/**
 * The short seeded chaos runs: real server processes on a real Redis (and on DynamoDB Local
 * as the store) under every nemesis action, checked with no violation; then the checker is
 * shown to catch each sabotage of that very history.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ofKind } from '../src/check/by-key.js';
import { checkHistory } from '../src/check/check-history.js';
import { allowedMs } from '../src/check/joins.js';
import { type HistoryLine, readHistories } from '../src/history.js';
import { textReport } from '../src/report.js';
import { type RunReport, runChaos } from '../src/run/chaos-run.js';
import { ALL_ACTIONS, type JoinBound } from '../src/run/presets.js';
import { SHORT_DYNAMODB_RUN, SHORT_REDIS_RUN } from './support/short-runs.js';

const kept: string[] = [];
afterAll(() => {
  for (const dir of kept) rmSync(dir, { recursive: true, force: true });
});

// Both stacks run at once; the sabotage tests read the Redis run's history.
let redisRun: Promise<RunReport> | undefined;
const redisReport = () => {
  redisRun ??= runChaos(SHORT_REDIS_RUN);
  return redisRun;
};

function expectClean(report: RunReport): void {
  // On failure the message names each violation, its lines, and the command that replays it.
  expect(report.violations, textReport(report, 'chaos')).toEqual([]);
  kept.push(report.historyDir);
  const { figures } = report;
  expect(new Set(Object.keys(figures.nemesis))).toEqual(new Set(ALL_ACTIONS));
  expect(figures.loaded).toBeGreaterThan(10);
  expect(figures.acknowledgedSaves).toBeGreaterThan(50);
  console.info(textReport(report, 'chaos'));
}

describe('a short chaos run', () => {
  it.concurrent('on Redis: no acknowledged save lost, one writer at a time, no counter back, every join bounded', async () => {
    expectClean(await redisReport());
  });

  it.concurrent('on DynamoDB Local as the store: the same', async () => {
    expectClean(
      await runChaos({ ...SHORT_DYNAMODB_RUN, dynamoEndpoint: inject('dynamoEndpoint') }),
    );
  });
});

describe('the Redis run history, sabotaged, fails the check that guards it', () => {
  let lines: HistoryLine[] = [];
  let bound: JoinBound = { documentedMs: 0, lateMs: 0 };
  beforeAll(async () => {
    const report = await redisReport();
    lines = readHistories(report.historyDir);
    bound = report.joinBound;
  });
  const violated = (sabotaged: readonly HistoryLine[]) =>
    checkHistory(sabotaged, { joinBound: bound }).violations.map((v) => v.check);

  it('unsabotaged, it passes', () => {
    expect(violated(lines)).toEqual([]);
  });

  it('a final counter below an acknowledged save: lost-save', () => {
    const top = ofKind(lines, 'save').reduce((a, b) => (b.value > a.value ? b : a));
    const sabotaged = lines.map((line) =>
      line.kind === 'final' && line.key === top.key ? { ...line, value: top.value - 1 } : line,
    );
    expect(violated(sabotaged)).toEqual(['lost-save']);
  });

  it('a save under an old token begun after another server loaded the profile: two-writers', () => {
    const saves = ofKind(lines, 'save');
    const olderSave = (read: (typeof reads)[number]) =>
      saves.find((save) => save.key === read.key && save.token !== read.token && save.at < read.at);
    const reads = ofKind(lines, 'read').filter((read) => read.stored);
    const later = reads.find((read) => olderSave(read) !== undefined);
    if (!later) throw new Error('the run has no profile loaded by two servers in turn');
    const old = olderSave(later)!;
    const late = { ...old, startedAt: later.at + 1, at: later.at + 2 };
    expect(violated([...lines, late])).toContain('two-writers');
  });

  it('a later read lower than an earlier one: counter-back', () => {
    const reads = ofKind(lines, 'read').filter((read) => read.stored);
    const high = reads.reduce((a, b) => (b.value > a.value ? b : a));
    const start = { ...high, kind: 'load-started' as const, at: high.at + 9_000, loadId: 1e6 };
    const lowered = { ...high, at: high.at + 10_000, value: 0 };
    expect(violated([...lines, start, lowered])).toContain('counter-back');
  });

  it('a join ended past its bound: join-unbounded', () => {
    // Not an adoption: the guide leaves its save to the store's timeouts, so no bound holds it.
    const end = ofKind(lines, 'load-ended').find((line) => line.reason !== 'adopted');
    const sabotaged = lines.map((line) =>
      line === end ? { ...line, at: line.at + allowedMs(bound) * 10 } : line,
    );
    expect(violated(sabotaged)).toEqual(['join-unbounded']);
  });
});
