/**
 * Hostile profile messages (issue 28): ids and bodies of every class the records get (prototype
 * keys, lone surrogates, wrong types, huge and deep values, ids empty or too long), through
 * `driver.send` and `profile.send`. A message the oracles call well-formed is queued (a send)
 * or recorded and delivered after the save (a transfer), touching only the recipient's inbox
 * and the sender's own record; any other is refused with the typed error of its first problem,
 * and nothing is written: every stored key, the inbox and the profile records, byte for byte.
 */
import { type DataDriver, DataDriverError, ErrorCode, type Store } from '@datadriver/core';
import fc from 'fast-check';
import { expect } from 'vitest';
import { hostileData, hostileText, unsavable } from './arbitraries.js';
import { roundTrips, validProfileKey, wellFormed } from './oracles.js';

/** What `fuzzSuite` lends the message properties. */
export interface MessageFuzzContext {
  property<T>(
    title: string,
    arbitrary: fc.Arbitrary<T>,
    run: (value: T) => Promise<void>,
    runs?: number,
  ): void;
  /** The suite's runs per property. */
  readonly runs: number;
  driver(store: Store): DataDriver<Record<string, unknown>>;
  store(): Store;
  next(): string;
  rawKeyOf(key: string): string;
  readJson(key: string): Promise<string | undefined>;
  /** The backend keys changed, added or deleted since `before`. */
  snapshot(): Promise<ReadonlyMap<string, string>>;
  changedSince(before: ReadonlyMap<string, string>): Promise<string[]>;
}

/** The documented bounds (docs/guide/messages.md, Bounds), restated here, not imported. */
const MAX_ID_BYTES = 128;
const MAX_MESSAGE_BYTES = 16 * 1024;
const MAX_DEPTH = 64;

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
}

/** Ids: hostile text, wrong types, and strings on either side of the 128-byte cap. */
export const hostileMessageId: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileText, weight: 4 },
  { arbitrary: fc.constantFrom(undefined, null, 7, {}, [], true, ['a']), weight: 1 },
  {
    // On either side of the cap, counted as JSON without the quotes: 'x' at 128/129, 'é' at
    // 64/65 (2 bytes each), a control character at 21/22 (6 bytes as \u0001).
    arbitrary: fc
      .constantFrom(['x', 128], ['é', 64], ['\u0001', 21] as const)
      .chain(([fill, cap]) =>
        fc.integer({ min: cap - 2, max: cap + 2 }).map((count) => fill.repeat(count)),
      ),
    weight: 2,
  },
);

/** Bodies: JSON under hostile keys, values JSON would change, huge and deep ones. */
export const hostileBody: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 3 },
  { arbitrary: hostileData, weight: 3 },
  { arbitrary: unsavable, weight: 2 },
  { arbitrary: hostileText, weight: 1 },
  {
    // Around the 16 KiB a stored message may take.
    arbitrary: fc
      .integer({ min: 16_200, max: 16_400 })
      .map((length) => ({ s: 'x'.repeat(length) })),
    weight: 1,
  },
  { arbitrary: fc.integer({ min: 60, max: 68 }).map(nested), weight: 1 },
);

/** Why a message of `id` and `body` must be refused (its error's code), or `undefined`. */
function refusal(id: unknown, body: unknown, extra: object): string | undefined {
  if (typeof id !== 'string' || id === '' || !wellFormed(id)) return ErrorCode.InvalidArgument;
  if (jsonBytes(id) - 2 > MAX_ID_BYTES) return ErrorCode.InvalidArgument;
  if (!roundTrips(body) || !textWellFormed(body, 0)) return ErrorCode.InvalidData;
  const stored = { id, body, at: Date.now(), ...extra };
  return jsonBytes(stored) > MAX_MESSAGE_BYTES ? ErrorCode.TooLarge : undefined;
}

/** Every string and key in a JSON value is well-formed UTF-16 (within the depth). */
function textWellFormed(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return wellFormed(value);
  if (typeof value !== 'object' || value === null) return true;
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => textWellFormed(item, depth + 1));
  return Object.entries(value).every(
    ([key, item]) => wellFormed(key) && textWellFormed(item, depth + 1),
  );
}

async function attempt<T>(call: () => T | Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { error };
  }
}

function expectRefused(outcome: { value: unknown } | { error: unknown }, code: string): void {
  expect('error' in outcome, `accepted; expected ${code}`).toBe(true);
  const { error } = outcome as { error: unknown };
  expect(DataDriverError.isInstance(error), String(error)).toBe(true);
  expect((error as DataDriverError).code).toBe(code);
}

export function messageProperties(context: MessageFuzzContext): void {
  const inboxKey = (key: string) => context.rawKeyOf(`PlayerData#inbox/${key}`);

  context.property(
    'hostile sends: driver.send queues a well-formed message, writing only the inbox; any other is refused with its typed error, nothing written',
    fc.tuple(hostileMessageId, hostileBody),
    async ([id, body]) => {
      const key = `s${context.next()}`;
      const sender = context.driver(context.store());
      // An inbox that holds a message already: a refusal must leave it byte for byte.
      await sender.send(key, { coins: 1 }, { id: 'first' });
      const before = await context.snapshot();
      const outcome = await attempt(() => sender.send(key, body, { id } as { id: string }));
      const code = refusal(id, body, {});
      if (code !== undefined) {
        expectRefused(outcome, code);
        expect(await context.changedSince(before)).toEqual([]);
        return;
      }
      expect(outcome).toEqual({ value: { outcome: id === 'first' ? 'duplicate' : 'queued' } });
      const changed = await context.changedSince(before);
      expect(changed).toEqual(id === 'first' ? [] : [inboxKey(key)]);
    },
    // Two sends and two snapshots of the store each: half the runs keep CI's added time small.
    Math.ceil(context.runs / 2),
  );

  context.property(
    "hostile transfers: profile.send records a well-formed one, delivered after the save; any other throws its typed error and changes nothing, the sender's record included",
    fc.tuple(
      fc.oneof(fc.constantFrom('friend', '<self>'), hostileText),
      hostileMessageId,
      hostileBody,
    ),
    async ([recipient, id, body]) => {
      const key = `f${context.next()}`;
      const to = recipient === '<self>' ? key : recipient;
      const holder = context.driver(context.store());
      const profile = await holder.load(key);
      const own = await context.readJson(`PlayerData/${key}`);
      const before = await context.snapshot();
      const outcome = await attempt(() => profile.send(to, body, { id } as { id: string }));
      const code =
        !validProfileKey(to) || to === key
          ? ErrorCode.InvalidArgument
          : refusal(id, body, { from: key });
      if (code !== undefined) {
        expectRefused(outcome, code);
        expect(await context.changedSince(before)).toEqual([]);
        // The next write carries no trace of it: the record as before, its outbox empty.
        await profile.release();
        const stored = JSON.parse((await context.readJson(`PlayerData/${key}`)) ?? '{}');
        expect(stored.meta?.messages?.outbox ?? []).toEqual([]);
        expect(stored.data).toEqual(JSON.parse(own ?? '{}').data);
        return;
      }
      expect(outcome).toEqual({ value: undefined });
      await profile.release();
      const inbox = await waitForInbox(context, to, id as string);
      expect(inbox, `the transfer ${JSON.stringify(id)} to ${JSON.stringify(to)}`).toBe(true);
      const allowed = [context.rawKeyOf(`PlayerData/${key}`), inboxKey(to)];
      for (const changed of await context.changedSince(before)) expect(allowed).toContain(changed);
    },
    // A load, a release and a delivery each: half the runs, as above.
    Math.ceil(context.runs / 2),
  );
}

/** True once `to`'s inbox holds `id` (a delivery runs after the write commits), within 5 s. */
async function waitForInbox(context: MessageFuzzContext, to: string, id: string) {
  const started = Date.now();
  while (Date.now() - started < 5_000) {
    const json = await context.readJson(`PlayerData#inbox/${to}`);
    const pending = (JSON.parse(json ?? '{}') as { pending?: Array<{ id: string }> }).pending;
    if (pending?.some((message) => message.id === id)) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}
