/**
 * The long exploration: seeds split into chunks that worker threads run side by side. Each
 * finished chunk prints one line, so a log of an interrupted exploration tells `--resume`
 * which chunks are done; a violation prints its seed at once and its trace at the end.
 */

import { readFileSync } from 'node:fs';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { addCounts, explore } from './explore.js';
import { flowsNeverReached } from './flows.js';
import { describeFailure, violationLine } from './run.js';

export interface Chunk {
  readonly from: number;
  readonly runs: number;
}

/** What a worker sends back for one chunk: plain data, to cross the thread boundary. */
export interface ChunkResult extends Chunk {
  readonly failures: ReadonlyArray<{
    readonly seed: number;
    readonly line: string;
    readonly report: string;
  }>;
  readonly wallMs: number;
  readonly virtualMs: number;
  readonly counts: ReadonlyMap<string, number>;
}

/** Marks the worker threads this module starts, as opposed to the CLI's own run. */
export const WORKER_ROLE = 'datadriver-simulation-worker';

export function chunksOf(from: number, runs: number, size: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let start = from; start < from + runs; start += size) {
    chunks.push({ from: start, runs: Math.min(size, from + runs - start) });
  }
  return chunks;
}

export function chunkLine(result: ChunkResult): string {
  const last = result.from + result.runs - 1;
  const never = flowsNeverReached(result.counts);
  const flows = never.length === 0 ? 'every flow reached' : `never reached: ${never.join(', ')}`;
  return `chunk ${result.from}-${last}: ${result.failures.length} violations, ${(result.wallMs / 1000).toFixed(1)} s; ${flows}`;
}

/** The chunks a log of an earlier exploration reports done, as "from-last". */
export function chunksDone(logPath: string): Set<string> {
  const done = new Set<string>();
  for (const match of readFileSync(logPath, 'utf8').matchAll(/^chunk (\d+)-(\d+): /gm)) {
    done.add(`${match[1]}-${match[2]}`);
  }
  return done;
}

export async function runChunk(chunk: Chunk): Promise<ChunkResult> {
  const summary = await explore(chunk.from, chunk.runs);
  return {
    ...chunk,
    failures: summary.failures.map((result) => ({
      seed: result.seed,
      line: violationLine(result),
      report: describeFailure(result),
    })),
    wallMs: summary.wallMs,
    virtualMs: summary.virtualMs,
    counts: summary.counts,
  };
}

/**
 * Runs `chunks` on `jobs` worker threads, each taking the next chunk when it finishes one;
 * `onChunk` sees every result as it lands (in completion order). `script` is the built CLI,
 * which serves chunks when it starts as a worker (see `serveChunks`).
 */
export async function exploreInWorkers(
  script: string,
  chunks: readonly Chunk[],
  jobs: number,
  onChunk: (result: ChunkResult) => void,
): Promise<void> {
  const queue = [...chunks];
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(script, { workerData: { role: WORKER_ROLE } });
      const next = () => {
        const chunk = queue.shift();
        if (chunk) worker.postMessage(chunk);
        else void worker.terminate().then(() => resolve());
      };
      worker.on('message', (result: ChunkResult) => {
        onChunk(result);
        next();
      });
      worker.on('error', reject);
      worker.on('online', next);
    });
  await Promise.all(Array.from({ length: Math.min(jobs, chunks.length) }, one));
}

/** In a worker thread: run each chunk the CLI sends and send its result back. */
export function serveChunks(): boolean {
  const port = parentPort;
  if (!port || (workerData as { role?: unknown } | null)?.role !== WORKER_ROLE) return false;
  port.on('message', (chunk: Chunk) => {
    void runChunk(chunk).then((result) => port.postMessage(result));
  });
  return true;
}

export function totalCounts(results: readonly ChunkResult[]): Map<string, number> {
  const total = new Map<string, number>();
  for (const result of results) addCounts(total, result.counts);
  return total;
}
