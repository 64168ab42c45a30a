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
  type Logger,
  type Profile,
  type Store,
} from '@datadriver/core';
import { journalKeyOf, storeKeyOf } from '@datadriver/core/rules';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileData, hostileJournal, hostileRecordJson, hostileText } from './arbitraries.js';
import { countedStore, globalsSnapshot, LOAD_BOUND, silentLogger } from './bounds.js';
import { handoffMessageProperty } from './handoff-message-fuzz.js';
import type { FuzzHarness, FuzzOptions } from './harness.js';
import { messageProperties } from './message-fuzz.js';
import { roundTrips, validDriverName, validProfileKey } from './oracles.js';
import { fuzzSettings } from './settings.js';

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

    /**
     * One property: each run starts with what the last one opened closed (even after a
     * failure, so a shrink replays cleanly) and ends with the built-in prototypes unchanged.
     */
    function property<T>(
      title: string,
      arbitrary: fc.Arbitrary<T>,
      run: (value: T) => Promise<void>,
      runs = settings.runs,
    ): void {
      it(
        title,
        async () => {
          await fc.assert(
            fc.asyncProperty(arbitrary, async (value) => {
              await closeOpened();
              const globals = globalsSnapshot();
              await run(value);
              expect(globalsSnapshot()).toEqual(globals);
            }),
            { ...parameters, numRuns: runs },
          );
        },
        timeout,
      );
    }

    property(
      'hostile records: loaded, or refused with a typed error and left byte for byte; nothing else changes; each load ends within its bound',
      fc.tuple(hostileRecordJson, fc.option(hostileJournal)),
      async ([json, journal]) => {
        const key = `r${next()}`;
        const storeKey = storeKeyOf('PlayerData', key);
        await harness.writeJson(storeKey, json);
        const record = JSON.parse(json) as { meta?: { trade?: { id?: unknown } } };
        const marker = record.meta?.trade;
        const journalKey =
          typeof marker?.id === 'string' ? journalKeyOf('PlayerData', marker.id) : undefined;
        if (journal !== null && journalKey !== undefined) {
          await harness.writeJson(journalKey, JSON.stringify(journal));
        }
        const before = await harness.snapshot();
        const own = await harness.readJson(storeKey);
        const counted = countedStore(harness.store);
        const loading = track(driver(counted.store));
        const started = Date.now();
        const outcome = await settled(loading.load(key));
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
      },
    );

    property(
      'hostile profile keys: a well-formed key loads its own record and nothing else; any other is refused with Data.InvalidArgument, touching nothing',
      hostileText,
      async (key) => {
        const loading = track(driver(harness.store));
        const before = await harness.snapshot();
        const outcome = await settled(loading.load(key));
        if (!validProfileKey(key)) {
          expect(outcome).toMatchObject({ error: { code: ErrorCode.InvalidArgument } });
          expect(await changedSince(before)).toEqual([]);
          return;
        }
        expect('value' in outcome, String((outcome as { error?: unknown }).error)).toBe(true);
        await expectOwnLock(`PlayerData/${key}`, (outcome as { value: Profile<object> }).value);
        expect(await changedSince(before)).toEqual([harness.rawKeyOf(`PlayerData/${key}`)]);
      },
    );

    property(
      'hostile driver names: a valid name writes only under itself; any other is refused with Data.InvalidConfig',
      hostileText,
      async (driverName) => {
        let named: DataDriver<Record<string, unknown>>;
        try {
          named = track(driver(harness.store, driverName));
        } catch (error) {
          expect(validDriverName(driverName)).toBe(false);
          expect(error).toMatchObject({ code: ErrorCode.InvalidConfig });
          return;
        }
        expect(validDriverName(driverName)).toBe(true);
        const before = await harness.snapshot();
        await expectOwnLock(`${driverName}/k`, await named.load('k'));
        expect(await changedSince(before)).toEqual([harness.rawKeyOf(`${driverName}/k`)]);
      },
    );

    property(
      'hostile data: a save of data that round-trips as JSON stores exactly it; any other fails with Data.InvalidData and writes nothing',
      hostileData,
      async (data) => {
        const key = `d${next()}`;
        const saving = track(driver(harness.store));
        const profile = await saving.load(key);
        const before = await harness.snapshot();
        const own = await harness.readJson(`PlayerData/${key}`);
        profile.data = data;
        const saved = await settled(profile.save());
        if (roundTrips(data)) {
          expect(saved).toEqual({ value: undefined });
          const stored = JSON.parse((await harness.readJson(`PlayerData/${key}`)) ?? '{}');
          expect(JSON.stringify(stored.data)).toBe(JSON.stringify(data));
        } else {
          expect(saved).toMatchObject({ error: { code: ErrorCode.InvalidData } });
          expect(await harness.readJson(`PlayerData/${key}`)).toBe(own);
          expect(await changedSince(before)).toEqual([]);
          expect(profile.active).toBe(true);
        }
        profile.data = { coins: 1 };
        await profile.release();
        expect(profile.active).toBe(false);
      },
    );

    /** The record under `storeKey` is locked by `profile`'s session. */
    async function expectOwnLock(storeKey: string, profile: Profile<object>): Promise<void> {
      const stored = JSON.parse((await harness.readJson(storeKey)) ?? '{}');
      expect(stored.meta?.lock?.token).toBe(profile.lockToken);
    }

    messageProperties({
      property,
      runs: settings.runs,
      driver: (store) => track(driver(store)),
      store: () => harness.store,
      next,
      rawKeyOf: (key) => harness.rawKeyOf(key),
      readJson: (key) => harness.readJson(key),
      snapshot: () => harness.snapshot(),
      changedSince,
    });

    if (options.messages === false) return;
    handoffMessageProperty({
      property,
      name,
      bus: () => harness.bus,
      store: () => harness.store,
      track,
      logger,
      next,
      rawKeyOf: (key) => harness.rawKeyOf(key),
      snapshot: () => harness.snapshot(),
      changedSince,
    });
  });
}

/** A promise's outcome as a value, so a property can assert on either side. */
function settled<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}
