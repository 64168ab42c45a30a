import { describe, it } from 'vitest';
import { Cluster } from './cluster.js';
import type { ClusterBackend } from './cluster-backend.js';
import type { ScenarioRunOptions } from './run-handoff-scenarios.js';
import { lifecycleScenarios } from './scenarios/lifecycle.js';

/** Registers the restoreAt and erase scenarios; the backend's store must keep versions. */
export function runLifecycleScenarios(
  name: string,
  makeBackend: () => ClusterBackend | Promise<ClusterBackend>,
  options: ScenarioRunOptions = {},
): void {
  describe(`lifecycle scenarios on ${name}`, { concurrent: options.concurrent ?? false }, () => {
    for (const scenario of lifecycleScenarios) {
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
