import type { DataDriverEvent } from '@datadriver/core';
import { expect } from 'vitest';
import type { Cluster } from '../cluster.js';

/** One multi-server case, written once against the ports and run on every backend. */
export interface Scenario {
  readonly name: string;
  run(cluster: Cluster): Promise<void>;
}

export type LoadOutcome =
  | Extract<DataDriverEvent, { type: 'load.loaded' }>
  | Extract<DataDriverEvent, { type: 'load.failed' }>;

/**
 * Lets time pass until server `label` finishes a load of `key` that started after event
 * number `from`, and returns how it ended (its `waitedMs` is the wait the player saw).
 */
export async function settled(
  cluster: Cluster,
  label: string,
  key: string,
  from: number,
  limitSeedSeconds = 60,
): Promise<LoadOutcome> {
  let outcome: LoadOutcome | undefined;
  await cluster.until(
    () => {
      outcome = cluster.events
        .slice(from)
        .find(
          (event): event is LoadOutcome & { server: string } =>
            event.server === label &&
            (event.type === 'load.loaded' || event.type === 'load.failed') &&
            event.key === key,
        );
      return outcome !== undefined;
    },
    cluster.ms(limitSeedSeconds),
    `the load of ${key} on ${label}`,
  );
  return outcome!;
}

export interface WaitBounds {
  /** The wait on the virtual clock, to the millisecond (with the in-memory latencies). */
  readonly exactMs: number;
  /**
   * What the seed promises at most, in seed milliseconds (scaled on real backends). A wait
   * timed from an earlier start than the seed's may have a lower bound alone.
   */
  readonly atMostSeedMs?: number;
  /** What the rules promise at least, in seed milliseconds. */
  readonly atLeastSeedMs?: number;
}

/** The bounds a real-time wait is held to (ms), from the seed's scaled and the cluster's slack. */
export function realBounds(cluster: Cluster, bounds: WaitBounds): { min?: number; max?: number } {
  const { scale } = cluster.backend;
  // Real waits are whole milliseconds; round the scaled bounds so 13_000 * 0.07 is 910, not
  // 910.0000000000001. The 5 ms below allows for the event times' whole milliseconds.
  return {
    ...(bounds.atMostSeedMs === undefined
      ? {}
      : { max: Math.ceil(bounds.atMostSeedMs * scale) + cluster.slackMs }),
    ...(bounds.atLeastSeedMs === undefined
      ? {}
      : { min: Math.floor(bounds.atLeastSeedMs * scale) - 5 }),
  };
}

/**
 * Exact on the virtual clock; on a real backend within the seed's bounds scaled, plus the
 * slack measured from the machine at the start of the run (`Calibration`).
 */
export function expectWait(cluster: Cluster, waitedMs: number, bounds: WaitBounds): void {
  if (cluster.time.exact) {
    expect(waitedMs).toBe(bounds.exactMs);
    if (bounds.atMostSeedMs !== undefined)
      expect(bounds.exactMs).toBeLessThanOrEqual(bounds.atMostSeedMs);
    if (bounds.atLeastSeedMs !== undefined)
      expect(bounds.exactMs).toBeGreaterThanOrEqual(bounds.atLeastSeedMs);
    return;
  }
  const { min, max } = realBounds(cluster, bounds);
  const scaled = (seedMs: number) => Math.round(seedMs * cluster.backend.scale);
  console.info(
    `${cluster.title ?? expect.getState().currentTestName}: waited ${waitedMs} ms, bounds ${min ?? 0} to ${max ?? '-'} ms (exact ${scaled(bounds.exactMs)}, slack ${cluster.slackMs})`,
  );
  if (max !== undefined) expect(waitedMs).toBeLessThanOrEqual(max);
  if (min !== undefined) expect(waitedMs).toBeGreaterThanOrEqual(min);
}

/** Index of the next event: pass it to `settled` to find what happens after now. */
export function mark(cluster: Cluster): number {
  return cluster.events.length;
}
