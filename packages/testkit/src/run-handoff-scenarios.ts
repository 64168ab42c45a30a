import { describe, it } from 'vitest';
import { Cluster } from './cluster.js';
import type { ClusterBackend } from './cluster-backend.js';
import { handoffScenarios } from './scenarios/index.js';

export interface ScenarioRunOptions {
  /** Per scenario (default 60 s). */
  readonly timeoutMs?: number;
  /**
   * Runs the scenarios at once (each has its own servers, jobIds and driver name): shorter on
   * a real backend, at the price of more jitter in its timings.
   */
  readonly concurrent?: boolean;
}

/**
 * Registers every handoff scenario as a vitest test on a fresh cluster over the backend that
 * `makeBackend` returns. An adapter's test file is this one call.
 */
export function runHandoffScenarios(
  name: string,
  makeBackend: () => ClusterBackend | Promise<ClusterBackend>,
  options: ScenarioRunOptions = {},
): void {
  describe(`handoff scenarios on ${name}`, { concurrent: options.concurrent ?? false }, () => {
    for (const scenario of handoffScenarios) {
      it(scenario.name, { timeout: options.timeoutMs ?? 60_000 }, async () => {
        const cluster = new Cluster(await makeBackend());
        try {
          await scenario.run(cluster);
        } finally {
          await cluster.close();
        }
      });
    }
  });
}
