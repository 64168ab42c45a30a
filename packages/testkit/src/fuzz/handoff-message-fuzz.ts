/**
 * Hostile handoff messages on the bus (issue 14): payloads of every class the records get,
 * some carrying a held key and its real token, published raw on a holder's topic. Only a
 * well-formed request naming a held key's token releases it (`releasedBy`, the oracle); every
 * other profile stays held, and no key changes but the two records the holder holds.
 */
import { DataDriver, Handoff, type Logger, type Profile, type Store } from '@datadriver/core';
import fc from 'fast-check';
import { expect } from 'vitest';
import { HELD_KEYS, HELD_TOKEN, hostileMessage } from './arbitraries.js';
import type { FuzzBus } from './harness.js';
import { releasedBy } from './oracles.js';

/** What `fuzzSuite` lends the handoff message property. */
export interface HandoffMessageFuzzContext {
  property<T>(title: string, arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>): void;
  /** The harness's name, for the error that says it has no bus. */
  readonly name: string;
  bus(): FuzzBus | undefined;
  store(): Store;
  /** Closed before the next run, even after a failure. */
  track<T extends { close(): Promise<unknown> } | { destroy(): Promise<unknown> }>(resource: T): T;
  readonly logger: Logger;
  next(): string;
  rawKeyOf(key: string): string;
  snapshot(): Promise<ReadonlyMap<string, string>>;
  /** The backend keys changed, added or deleted since `before`. */
  changedSince(before: ReadonlyMap<string, string>): Promise<string[]>;
}

export function handoffMessageProperty(context: HandoffMessageFuzzContext): void {
  context.property(
    'hostile handoff messages: only a well-formed request for a held key releases it; nothing else changes',
    fc.array(hostileMessage, { minLength: 1, maxLength: 12 }),
    async (raw) => {
      const bus = context.bus();
      if (!bus) throw new Error(`the ${context.name} harness has no bus: pass { messages: false }`);
      await messagesRun(context, bus, raw);
    },
  );
}

/** One run of the property: a fresh server holding two fresh keys. */
async function messagesRun(
  context: HandoffMessageFuzzContext,
  bus: FuzzBus,
  raw: readonly string[],
): Promise<void> {
  const { logger, track } = context;
  const jobId = `fuzz-${context.next()}`;
  const { messenger, presence } = bus;
  const handoff = track(new Handoff({ jobId, messenger, presence, logger }));
  const holder = track(
    new DataDriver<Record<string, unknown>>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store: context.store(),
      jobId,
      handoff,
      lockWaitSeconds: 0,
      logger,
    }),
  );
  await waitFor(() => handoff.subscribed, 5_000);
  const keys = [`${jobId}-1`, `${jobId}-2`] as const;
  const held = new Map<string, Profile<object>>();
  for (const key of keys) held.set(key, await holder.load(key));
  const tokens = new Map([...held].map(([key, profile]) => [key, profile.lockToken]));
  const payloads = raw.map((payload) =>
    payload
      .replaceAll(HELD_TOKEN, tokens.get(keys[0]) ?? '')
      .replaceAll(HELD_KEYS[0], keys[0])
      .replaceAll(HELD_KEYS[1], keys[1]),
  );
  const before = await context.snapshot();
  for (const payload of payloads) await bus.publishRaw(handoff.topic, payload);
  await bus.settle();
  const released = releasedBy(payloads, 'PlayerData', tokens);
  for (const [key, profile] of held) {
    if (released.has(key)) await waitFor(() => !profile.active, 5_000);
    expect(profile.active, `${key} after ${JSON.stringify(payloads)}`).toBe(!released.has(key));
  }
  const allowed = new Set(keys.map((key) => context.rawKeyOf(`PlayerData/${key}`)));
  for (const changed of await context.changedSince(before)) expect(allowed).toContain(changed);
}

/** Polls `condition` (a real backend's bus delivers in its own time) for at most `limitMs`. */
async function waitFor(condition: () => boolean, limitMs: number): Promise<void> {
  const started = Date.now();
  while (!condition() && Date.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
