/**
 * CI's smoke test of `pnpm bench -- --quick`: the whole run on real backends, written to a
 * temporary folder (never over bench/results), with every measurement present. It asserts
 * nothing about speed: CI machines differ.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const EXPECTED = [
  'handover.all-redis',
  'limit.all-redis',
  'limit.all-redis.two-process',
  'limit.all-redis.two-process.back-to-back',
  'ratio.all-redis',
  'ratio.all-redis.two-process',
  'ratio.all-redis.two-process.back-to-back',
  'handover.all-redis.in-process',
  'ratio.all-redis.in-process',
  'roundtrips.all-redis.handover',
  'handover.dynamodb-redis',
  'limit.dynamodb-redis',
  'limit.dynamodb-redis.two-process',
  'limit.dynamodb-redis.two-process.back-to-back',
  'ratio.dynamodb-redis',
  'ratio.dynamodb-redis.two-process',
  'ratio.dynamodb-redis.two-process.back-to-back',
  'handover.dynamodb-redis.in-process',
  'ratio.dynamodb-redis.in-process',
  'roundtrips.dynamodb-redis.handover',
  'handover.redis-pubsub',
  'limit.redis-pubsub',
  'limit.redis-pubsub.two-process',
  'limit.redis-pubsub.two-process.back-to-back',
  'ratio.redis-pubsub',
  'ratio.redis-pubsub.two-process',
  'ratio.redis-pubsub.two-process.back-to-back',
  'handover.redis-pubsub.in-process',
  'ratio.redis-pubsub.in-process',
  'roundtrips.redis-pubsub.handover',
  'handover.all-postgres',
  'limit.all-postgres',
  'limit.all-postgres.two-process',
  'limit.all-postgres.two-process.back-to-back',
  'ratio.all-postgres',
  'ratio.all-postgres.two-process',
  'ratio.all-postgres.two-process.back-to-back',
  'handover.all-postgres.in-process',
  'ratio.all-postgres.in-process',
  'roundtrips.all-postgres.handover',
  'handover.all-redis.stale-connection',
  'rejoin.during-save',
  'rejoin.after-failed-save',
  'rejoin.one-save',
  'crash.datadriver',
  'crash.datadriver.floor',
  'crash.datadriver.since-last-beat',
  'throughput.datadriver',
  'throughput.datadriver-cold',
  'throughput.same-commands',
  'throughput.naive',
  'throughput.ratio',
  'throughput.ratio.cold',
  'throughput.ratio.same-commands',
  'throughput.redis-cpu.ratio',
  'roundtrips.cycle',
  'roundtrips.cycle-cold',
  'throughput.datadriver.auto-pipelining',
  'throughput.datadriver-cold.auto-pipelining',
  'throughput.same-commands.auto-pipelining',
  'throughput.naive.auto-pipelining',
  'throughput.ratio.auto-pipelining',
  'throughput.ratio.cold.auto-pipelining',
  'throughput.ratio.same-commands.auto-pipelining',
  'throughput.redis-cpu.ratio.auto-pipelining',
  'throughput.core-cpu',
  'throughput.postgres.datadriver',
  'throughput.postgres.datadriver-cold',
  'throughput.postgres.same-commands',
  'throughput.postgres.store-alone',
  'throughput.postgres.naive',
  'throughput.postgres.ratio',
  'throughput.postgres.ratio.same-commands',
  'throughput.postgres.ratio.store-alone',
  'throughput.postgres.ratio.cold',
  'roundtrips.postgres.cycle',
  'roundtrips.postgres.cycle-cold',
  'messages.gift.all-redis',
  'messages.gift.all-redis.floor',
  'messages.gift.all-redis.ratio',
  'messages.load.with-handler',
  'messages.load.without-handler',
  'messages.load.extra',
  'messages.load.throughput.with-handler',
  'messages.load.throughput.without-handler',
  'messages.load.throughput.ratio',
  'messages.popular',
  'messages.popular.one-sender',
  'idle.1',
  'idle.10',
  'player-hour.redis.idle.writes',
  'player-hour.redis.idle.bytes',
  'player-hour.redis.active.writes',
  'player-hour.redis.active.bytes',
  'player-hour.dynamodb.idle.writes',
  'player-hour.dynamodb.idle.bytes',
  'player-hour.dynamodb.active.writes',
  'player-hour.dynamodb.active.bytes',
  'peer.crash',
  'peer.handover.live',
  'peer.handover.leave-and-join',
];

interface Figure {
  readonly id: string;
  readonly summary?: { readonly n: number; readonly median: number };
  readonly value?: number;
}

let outDir: string | undefined;
afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

test('the quick run measures everything and writes results.md and results.json', async () => {
  outDir = await mkdtemp(join(tmpdir(), 'datadriver-bench-'));
  await promisify(execFile)(process.execPath, [CLI, '--quick', '--out', outDir], {
    timeout: 240_000,
  });
  const json = JSON.parse(await readFile(join(outDir, 'results.json'), 'utf8')) as {
    machine: { cpuCount: number; node: string; backends: Record<string, string> };
    figures: Figure[];
  };
  expect(json.machine.cpuCount).toBeGreaterThan(0);
  expect(Object.keys(json.machine.backends)).toEqual([
    'redis',
    'dynamodb',
    'pubsub',
    'postgres',
    'peer',
  ]);
  const ids = json.figures.map((figure) => figure.id);
  expect(ids).toEqual(EXPECTED);
  for (const figure of json.figures) {
    // A figure is a measurement: samples, or a single measured value.
    if (figure.summary) expect(figure.summary.n, figure.id).toBeGreaterThan(0);
    else expect(Number.isFinite(figure.value), figure.id).toBe(true);
  }
  const markdown = await readFile(join(outDir, 'results.md'), 'utf8');
  expect(markdown).toContain('| Measurement |');
  expect(markdown).toContain(json.machine.node);
});
