/**
 * The simulator catches a deliberately broken rule within CI's budget of 1,000 seeds. This
 * file runs against core's source (see vitest.config.ts), so that `vi.mock` can swap a rule
 * of core's rule modules (and the holder's handoff endpoint) inside the drivers; no hook is
 * added to core's public API.
 */
import type * as Core from '@datadriver/core/rules';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  describeFailure,
  explore,
  type InvariantName,
  runSimulation,
  type SimulationResult,
} from '../src/simulation/index.js';

type BrokenRule =
  | 'none'
  | 'stale-without-presence'
  | 'save-without-lock'
  | 'recovery-commits'
  | 'request-without-token'
  | 'apply-ignores-applied';

/** What this file reaches of core's handoff endpoint, where requests come in to the holder. */
interface EndpointModule {
  readonly HandoffEndpoint: {
    readonly prototype: {
      receiveHandoffRequest(
        key: string,
        requester: string,
        token: string | undefined,
        reason?: 'support',
      ): void;
    };
  };
}

/** What this file reaches of core's message rules: the holder's plan of what to apply. */
interface ApplyModule {
  planApply(inbox: unknown, applied: readonly string[]): unknown;
}

const swap = vi.hoisted(() => ({ rule: 'none' as BrokenRule }));

vi.mock('../../core/src/rules/lock-rules.js', async (importOriginal) => {
  const rules = await importOriginal<typeof Core>();
  return {
    ...rules,
    decideLoad: (...args: Parameters<typeof Core.decideLoad>): Core.LoadDecision => {
      const decision = rules.decideLoad(...args);
      // Broken: a stale flagged lock is taken by age, without reading its holder's presence.
      if (swap.rule === 'stale-without-presence' && decision.kind === 'read-presence') {
        return { kind: 'take', reason: 'stale', from: decision.holder };
      }
      return decision;
    },
    decideSave: (...args: Parameters<typeof Core.decideSave>): Core.SaveDecision => {
      const decision = rules.decideSave(...args);
      // Broken: a save writes whoever holds the lock now.
      if (swap.rule === 'save-without-lock' && decision.kind === 'lost' && args[0]) {
        return { kind: 'write' };
      }
      return decision;
    },
  };
});

vi.mock('../../core/src/rules/trade-rules.js', async (importOriginal) => {
  const rules = await importOriginal<typeof Core>();
  return {
    ...rules,
    decidedJournal: (
      ...args: Parameters<typeof Core.decidedJournal>
    ): ReturnType<typeof Core.decidedJournal> => {
      const [current, id, decision, now] = args;
      // Broken: an undecided trade that should abort (a recovering load, or its own server
      // after a failed marker) is committed instead.
      if (
        swap.rule === 'recovery-commits' &&
        decision === 'aborted' &&
        current?.state === 'prepared'
      ) {
        return rules.decidedJournal(current, id, 'committed', now);
      }
      return rules.decidedJournal(...args);
    },
  };
});

vi.mock('../../core/src/rules/messages/apply.js', async (importOriginal) => {
  const rules = await importOriginal<ApplyModule>();
  return {
    ...rules,
    planApply: (...args: Parameters<ApplyModule['planApply']>): unknown => {
      // Broken: the holder applies every pending message, without checking the ids the
      // profile records as applied (a message left in the inbox by a crash before its trim).
      if (swap.rule === 'apply-ignores-applied') return rules.planApply(args[0], []);
      return rules.planApply(...args);
    },
  };
});

vi.mock('../../core/src/holder/handoff-endpoint.js', async (importOriginal) => {
  const module = await importOriginal<EndpointModule>();
  const { prototype } = module.HandoffEndpoint;
  const receive = prototype.receiveHandoffRequest;
  prototype.receiveHandoffRequest = function (this: unknown, key, requester, token, reason) {
    // Broken: the holder drops the token its requester saw.
    if (swap.rule === 'request-without-token') receive.call(this, key, requester, undefined);
    else receive.call(this, key, requester, token, reason);
  };
  return module;
});

const BUDGET = 1000;
/** The seeds that caught a broken rule, replayed with the rules as written at the end. */
const caught: number[] = [];

/** The first seed of CI's budget that breaks an invariant. */
async function firstFailure(): Promise<SimulationResult | undefined> {
  const { failures } = await explore(1, BUDGET, { stopAtFirst: true });
  return failures[0];
}

function expectCaught(failure: SimulationResult | undefined, invariant: InvariantName): void {
  expect(failure?.violation?.invariant, 'no seed of the budget broke an invariant').toBe(invariant);
  if (failure) caught.push(failure.seed);
  console.info(`caught at seed ${failure?.seed}: ${failure?.violation?.message}`);
}

describe('a broken rule is caught within the CI budget', () => {
  afterEach(() => {
    swap.rule = 'none';
    vi.restoreAllMocks();
  });

  it('taking a stale lock without reading presence', { timeout: 300_000 }, async () => {
    swap.rule = 'stale-without-presence';
    expectCaught(await firstFailure(), 'presence-protection');
  });

  it('a save that ignores the lock token', { timeout: 300_000 }, async () => {
    swap.rule = 'save-without-lock';
    expectCaught(await firstFailure(), 'one-lock-holder');
  });

  it('an undecided trade committed where it should abort', { timeout: 300_000 }, async () => {
    swap.rule = 'recovery-commits';
    expectCaught(await firstFailure(), 'trade-atomicity');
  });

  it('a holder that ignores the token in a request', { timeout: 300_000 }, async () => {
    swap.rule = 'request-without-token';
    expectCaught(await firstFailure(), 'late-request-harmless');
  });

  it('a holder that applies messages without checking the applied ids', {
    timeout: 300_000,
  }, async () => {
    swap.rule = 'apply-ignores-applied';
    expectCaught(await firstFailure(), 'message-once');
  });

  it('the seeds that caught them hold with the rules as written', {
    timeout: 120_000,
  }, async () => {
    // What failed above is the broken rule's doing, not the seed's.
    expect(caught).toHaveLength(5);
    for (const seed of caught) {
      const result = await runSimulation(seed);
      expect(result.violation, describeFailure(result)).toBeUndefined();
    }
  });
});
