/**
 * The property-based suite of issue 14: hostile records, profile keys, driver names, data
 * values and handoff messages, each run against a real backend through a harness that reads
 * and writes it directly. Every run checks that nothing outside the profile's own record
 * changed, that no global prototype changed, that every refusal is a typed DataDriverError,
 * and that every load ended within its bound. A short seeded run is part of each adapter's
 * tests; `pnpm fuzz --runs N` runs a long one.
 */
import {
  DataDriver,
  DataDriverError,
  ErrorCode,
  Handoff,
  type Logger,
  type Messenger,
  type Presence,
  type Profile,
  type Store,
} from '@datadriver/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HELD_KEYS,
  HELD_TOKEN,
  hostileData,
  hostileJournal,
  hostileMessage,
  hostileRecord,
  hostileText,
} from './arbitraries.js';
import { countedStore, globalsSnapshot, LOAD_BOUND, silentLogger } from './bounds.js';
import { releasedBy, roundTrips, validDriverName, validProfileKey } from './oracles.js';
import { fuzzSettings } from './settings.js';

/** A backend as the suite sees it: a store, and direct access to what it holds. */
export interface FuzzHarness {
  /** A store over the backend, in a namespace of the harness's own. */
  readonly store: Store;
  /** The JSON of the record under store key `key` as the backend holds it, byte for byte. */
  readJson(key: string): Promise<string | undefined>;
  /** Writes `json` under store key `key` without the adapter, as another program might. */
  writeJson(key: string, json: string): Promise<void>;
  /** The backend key that holds store key `key` (the same string on a flat backend). */
  rawKeyOf(key: string): string;
  /** Every backend key of the namespace with its value, to tell what a run changed. */
  snapshot(): Promise<ReadonlyMap<string, string>>;
  /** For the message property: a bus and presence, and a way to publish raw payloads. */
  readonly bus?: FuzzBus;
  close(): Promise<void>;
}

export interface FuzzBus {
  readonly messenger: Messenger;
  readonly presence: Presence;
  /** Publishes `payload` as it is (any string) to `topic`. */
  publishRaw(topic: string, payload: string): Promise<void>;
  /** Resolves once what was published has been delivered. */
  settle(): Promise<void>;
}

export interface FuzzOptions {
  /** Runs per property (default `FUZZ_RUNS`, else 30). */
  readonly runs?: number;
  /** The seed (default `FUZZ_SEED`, else 14): a failure prints the seed and path to replay. */
  readonly seed?: number;
  /** Fuzz handoff messages too (default true; the harness then needs a `bus`). */
  readonly messages?: boolean;
}

/** The codes a load of a hostile record may refuse with: each says why, none is a crash. */
const LOAD_REFUSALS: readonly string[] = [
  ErrorCode.InvalidRecord,
  ErrorCode.NewerSchema,
  ErrorCode.Locked,
  ErrorCode.TooLarge,
  ErrorCode.InvalidData,
  ErrorCode.Conflict,
];

let suites = 0;

export function fuzzSuite(
  name: string,
  makeHarness: () => Promise<FuzzHarness>,
  options: FuzzOptions = {},
): void {
  describe(`Fuzz: ${name}`, () => {
    const settings = fuzzSettings(options);
    const parameters = { numRuns: settings.runs, seed: settings.seed };
    const timeout = settings.timeoutMs;
    let harness: FuzzHarness;
    let runs = 0;
    suites += 1;
    const next = () => {
      runs += 1;
      return `${suites}x${runs}`;
    };
    const logger: Logger = silentLogger();
    /** Drivers and handoffs a run opened: closed before the next run, even after a failure. */
    const opened: Array<{ close(): Promise<unknown> } | { destroy(): Promise<unknown> }> = [];
    function track<T extends { close(): Promise<unknown> } | { destroy(): Promise<unknown> }>(
      resource: T,
    ): T {
      opened.push(resource);
      return resource;
    }
    async function closeOpened(): Promise<void> {
      // Drivers first, then the handoffs they use.
      for (const resource of opened.splice(0).reverse()) {
        await ('close' in resource ? resource.close() : resource.destroy()).catch(() => undefined);
      }
    }

    beforeAll(async () => {
      harness = await makeHarness();
    }, 60_000);
    afterAll(async () => {
      await closeOpened();
      await harness?.close();
    }, 60_000);

    const driver = (store: Store, driverName = 'PlayerData') =>
      new DataDriver<Record<string, unknown>>({
        name: driverName,
        defaults: { coins: 0 },
        store,
        jobId: 'fuzz-A',
        handoff: false,
        lockWaitSeconds: 0,
        logger,
      });

    /** The backend keys a run changed, added or deleted. */
    const changedSince = async (before: ReadonlyMap<string, string>): Promise<string[]> => {
      const after = await harness.snapshot();
      const keys = new Set([...before.keys(), ...after.keys()]);
      return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
    };

    it(
      'hostile records: loaded, or refused with a typed error and left byte for byte; nothing else changes; each load ends within its bound',
      async () => {
        await fc.assert(
          fc.asyncProperty(hostileRecord, fc.option(hostileJournal), async (record, journal) => {
            await closeOpened();
            const globals = globalsSnapshot();
            const key = `r${next()}`;
            const storeKey = `PlayerData/${key}`;
            await harness.writeJson(storeKey, JSON.stringify(record));
            const marker = (record.meta as { trade?: { id?: unknown } } | undefined)?.trade;
            const journalKey =
              typeof marker?.id === 'string' ? `PlayerData#trade/${marker.id}` : undefined;
            if (journal !== null && journalKey !== undefined) {
              await harness.writeJson(journalKey, JSON.stringify(journal));
            }
            const before = await harness.snapshot();
            const own = await harness.readJson(storeKey);
            const counted = countedStore(harness.store);
            const loading = track(driver(counted.store));
            const started = Date.now();
            const outcome = await loading.load(key).then(
              (profile) => ({ profile }),
              (error: unknown) => ({ error }),
            );
            expect(Date.now() - started).toBeLessThanOrEqual(LOAD_BOUND.ms);
            expect(counted.calls()).toBeLessThanOrEqual(LOAD_BOUND.storeCalls);
            const allowed = new Set<string>();
            if ('error' in outcome) {
              expect(DataDriverError.isInstance(outcome.error), String(outcome.error)).toBe(true);
              expect(LOAD_REFUSALS).toContain((outcome.error as DataDriverError).code);
              expect(await harness.readJson(storeKey)).toBe(own);
            } else allowed.add(harness.rawKeyOf(storeKey));
            // A recovery decides the marker's journal: the one other key a load may write.
            if (journalKey !== undefined) allowed.add(harness.rawKeyOf(journalKey));
            for (const changed of await changedSince(before)) expect(allowed).toContain(changed);
            expect(globalsSnapshot()).toEqual(globals);
          }),
          parameters,
        );
      },
      timeout,
    );

    it(
      'hostile profile keys: a well-formed key loads its own record and nothing else; any other is refused with Data.InvalidArgument, touching nothing',
      async () => {
        await fc.assert(
          fc.asyncProperty(hostileText, async (key) => {
            await closeOpened();
            const globals = globalsSnapshot();
            const loading = track(driver(harness.store));
            const before = await harness.snapshot();
            const outcome = await loading.load(key).then(
              (profile) => ({ profile }),
              (error: unknown) => ({ error }),
            );
            if (validProfileKey(key)) {
              expect('profile' in outcome, String((outcome as { error?: unknown }).error)).toBe(
                true,
              );
              const { profile } = outcome as { profile: Profile<object> };
              const stored = JSON.parse((await harness.readJson(`PlayerData/${key}`)) ?? '{}');
              expect(stored.meta?.lock?.token).toBe(profile.lockToken);
              expect(await changedSince(before)).toEqual([harness.rawKeyOf(`PlayerData/${key}`)]);
            } else {
              expect(outcome).toMatchObject({ error: { code: ErrorCode.InvalidArgument } });
              expect(await changedSince(before)).toEqual([]);
            }
            expect(globalsSnapshot()).toEqual(globals);
          }),
          parameters,
        );
      },
      timeout,
    );

    it(
      'hostile driver names: a valid name writes only under itself; any other is refused with Data.InvalidConfig',
      async () => {
        await fc.assert(
          fc.asyncProperty(hostileText, async (driverName) => {
            await closeOpened();
            let made: DataDriver<Record<string, unknown>>;
            try {
              made = driver(harness.store, driverName);
            } catch (error) {
              expect(validDriverName(driverName)).toBe(false);
              expect(error).toMatchObject({ code: ErrorCode.InvalidConfig });
              return;
            }
            expect(validDriverName(driverName)).toBe(true);
            const named = track(made);
            const before = await harness.snapshot();
            const profile = await named.load('k');
            const stored = JSON.parse((await harness.readJson(`${driverName}/k`)) ?? '{}');
            expect(stored.meta?.lock?.token).toBe(profile.lockToken);
            expect(await changedSince(before)).toEqual([harness.rawKeyOf(`${driverName}/k`)]);
          }),
          parameters,
        );
      },
      timeout,
    );

    it(
      'hostile data: a save of data that round-trips as JSON stores exactly it; any other fails with Data.InvalidData and writes nothing',
      async () => {
        await fc.assert(
          fc.asyncProperty(hostileData, async (data) => {
            await closeOpened();
            const globals = globalsSnapshot();
            const key = `d${next()}`;
            const saving = track(driver(harness.store));
            const profile = await saving.load(key);
            const before = await harness.snapshot();
            const own = await harness.readJson(`PlayerData/${key}`);
            profile.data = data;
            const saved = await profile.save().then(
              () => undefined,
              (error: unknown) => error,
            );
            if (roundTrips(data)) {
              expect(saved).toBeUndefined();
              const stored = JSON.parse((await harness.readJson(`PlayerData/${key}`)) ?? '{}');
              expect(JSON.stringify(stored.data)).toBe(JSON.stringify(data));
            } else {
              expect(saved).toMatchObject({ code: ErrorCode.InvalidData });
              expect(await harness.readJson(`PlayerData/${key}`)).toBe(own);
              expect(await changedSince(before)).toEqual([]);
              expect(profile.active).toBe(true);
            }
            expect(globalsSnapshot()).toEqual(globals);
            profile.data = { coins: 1 };
            await profile.release();
            expect(profile.active).toBe(false);
          }),
          parameters,
        );
      },
      timeout,
    );

    if (options.messages === false) return;
    it(
      'hostile handoff messages: only a well-formed request for a held key releases it; nothing else changes',
      async () => {
        const bus = harness.bus;
        if (!bus) throw new Error(`the ${name} harness has no bus: pass { messages: false }`);
        await fc.assert(
          fc.asyncProperty(fc.array(hostileMessage, { minLength: 1, maxLength: 12 }), (raw) =>
            messagesRun(bus, raw),
          ),
          parameters,
        );
      },
      timeout,
    );

    /** One run of the message property: a fresh server holding two fresh keys. */
    async function messagesRun(bus: FuzzBus, raw: readonly string[]): Promise<void> {
      await closeOpened();
      const globals = globalsSnapshot();
      const jobId = `fuzz-${next()}`;
      const { messenger, presence } = bus;
      const handoff = track(new Handoff({ jobId, messenger, presence, logger }));
      const holder = track(
        new DataDriver<Record<string, unknown>>({
          name: 'PlayerData',
          defaults: { coins: 0 },
          store: harness.store,
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
      const before = await harness.snapshot();
      for (const payload of payloads) await bus.publishRaw(handoff.topic, payload);
      await bus.settle();
      const released = releasedBy(payloads, 'PlayerData', tokens);
      for (const [key, profile] of held) {
        if (released.has(key)) await waitFor(() => !profile.active, 5_000);
        expect(profile.active, `${key} after ${JSON.stringify(payloads)}`).toBe(!released.has(key));
      }
      const allowed = new Set(keys.map((key) => harness.rawKeyOf(`PlayerData/${key}`)));
      for (const changed of await changedSince(before)) expect(allowed).toContain(changed);
      expect(globalsSnapshot()).toEqual(globals);
    }
  });
}

async function waitFor(condition: () => boolean, limitMs: number): Promise<void> {
  const started = Date.now();
  while (!condition() && Date.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
