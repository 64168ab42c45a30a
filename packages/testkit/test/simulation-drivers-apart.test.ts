/**
 * The simulator's drivers-apart invariant catches a driver that shares its server's records
 * with a second driver there, within CI's budget of 1,000 seeds. Like
 * simulation-broken-rule.test.ts, this file runs against core's source (vitest.config.ts), so
 * that `vi.mock` can plant the bug inside the drivers; no hook is added to core's public API.
 *
 * The planted bug is one a developer assuming one driver per server could write: a driver's
 * store keys cached by its server's id, so the second driver built on a server reuses the
 * first's keys and reads and writes the first's records under its own locks.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeFailure, explore, runSimulation } from '../src/simulation/index.js';

/** What this file reaches of core's driver context: where a driver's store keys come from. */
interface ContextModule {
  createContext(...args: unknown[]): {
    readonly keys: unknown;
    readonly identity: { readonly jobId: string };
  };
}

const plant = vi.hoisted(() => ({ on: false }));

vi.mock('../../core/src/context/context.js', async (importOriginal) => {
  const module = await importOriginal<ContextModule>();
  const keysByServer = new Map<string, unknown>();
  return {
    ...module,
    createContext: (...args: unknown[]) => {
      const context = module.createContext(...args);
      if (!plant.on) return context;
      // Broken: the first driver's keys on a server serve every driver built there.
      const jobId = context.identity.jobId;
      if (!keysByServer.has(jobId)) keysByServer.set(jobId, context.keys);
      return Object.freeze({ ...context, keys: keysByServer.get(jobId) });
    },
  };
});

const BUDGET = 1000;

describe('drivers-apart catches two drivers on one server sharing records', () => {
  afterEach(() => {
    plant.on = false;
  });

  let caught: number | undefined;

  it('store keys cached by server: a second driver there uses the first one’s', {
    timeout: 300_000,
  }, async () => {
    plant.on = true;
    const { failures } = await explore(1, BUDGET, { stopAtFirst: true });
    const failure = failures[0];
    expect(failure?.violation?.invariant, 'no seed of the budget broke an invariant').toBe(
      'drivers-apart',
    );
    caught = failure?.seed;
    console.info(`caught at seed ${caught}: ${failure?.violation?.message}`);
  });

  it('the seed that caught it holds with each driver’s own keys', async () => {
    // What failed above is the plant's doing, not the seed's.
    expect(caught).toBeDefined();
    const result = await runSimulation(caught ?? 0);
    expect(result.violation, describeFailure(result)).toBeUndefined();
  });
});
