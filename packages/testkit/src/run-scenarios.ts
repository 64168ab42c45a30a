import { describe, it } from 'vitest';
import type { ClusterBackend } from './cluster/backend.js';
import { withCluster } from './cluster/with-cluster.js';
import { handoffScenarios } from './scenarios/index.js';
import { lifecycleScenarios } from './scenarios/lifecycle.js';
import type { Scenario } from './scenarios/scenario.js';

export interface ScenarioRunOptions {
  /** Per scenario (default 60 s). */
  readonly timeoutMs?: number;
  /**
   * Runs the scenarios at once (each has its own servers, jobIds and driver name): shorter on
   * a real backend, at the price of more jitter in its timings.
   */
  readonly concurrent?: boolean;
}

type MakeBackend = () => ClusterBackend | Promise<ClusterBackend>;

/**
 * Registers every handoff scenario as a vitest test on a fresh cluster over the backend that
 * `makeBackend` returns. An adapter's test file is this one call.
 */
export function runHandoffScenarios(
  name: string,
  makeBackend: MakeBackend,
  options: ScenarioRunOptions = {},
): void {
  registerScenarios(`handoff scenarios on ${name}`, handoffScenarios, makeBackend, options);
}

/** Registers the restoreAt and erase scenarios; the backend's store must keep versions. */
export function runLifecycleScenarios(
  name: string,
  makeBackend: MakeBackend,
  options: ScenarioRunOptions = {},
): void {
  registerScenarios(`lifecycle scenarios on ${name}`, lifecycleScenarios, makeBackend, options);
}

function registerScenarios(
  title: string,
  scenarios: readonly Scenario[],
  makeBackend: MakeBackend,
  options: ScenarioRunOptions,
): void {
  describe(title, { concurrent: options.concurrent ?? false }, () => {
    for (const scenario of scenarios) {
      it(scenario.name, { timeout: options.timeoutMs ?? 60_000 }, async () => {
        await withCluster(await makeBackend(), (cluster) => scenario.run(cluster), scenario.name);
      });
    }
  });
}
