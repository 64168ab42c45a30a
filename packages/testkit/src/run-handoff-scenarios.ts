import { describe, it } from 'vitest';
import { Cluster } from './cluster.js';
import type { ClusterBackend } from './cluster-backend.js';
import { handoffScenarios } from './scenarios/index.js';

/**
 * Registers every handoff scenario as a vitest test on a fresh cluster over the backend that
 * `makeBackend` returns. An adapter's test file is this one call.
 */
export function runHandoffScenarios(
  name: string,
  makeBackend: () => ClusterBackend | Promise<ClusterBackend>,
  options: { timeoutMs?: number } = {},
): void {
  describe(`handoff scenarios on ${name}`, () => {
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
