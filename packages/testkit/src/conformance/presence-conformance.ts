/**
 * What every Presence adapter must do on its real backend: a value set by one server is read
 * by another until its TTL passes; a failed read rejects (the caller's "unknown"), never
 * answers "absent".
 */
import type { Presence } from '@datadriver/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, expectTyped, type Outage } from './outage.js';
import { presenceEntryConformance } from './presence-entry-conformance.js';
import { presenceScanConformance } from './scan-conformance.js';

export interface PresenceHarness {
  connect(): Promise<Presence>;
  outage: Outage;
  close(): Promise<void>;
}

let suites = 0;

export function presenceConformance(
  name: string,
  makeHarness: () => Promise<PresenceHarness>,
  options: {
    readonly timeoutMs?: number;
    /** The adapter offers the optional `scan`: check it too. */
    readonly scan?: boolean;
    /** The adapter offers the optional `getEntry` and tells `expiresInMs`: check it too. */
    readonly getEntry?: boolean;
  } = {},
): void {
  describe(`Presence conformance: ${name}`, () => {
    let harness: PresenceHarness;
    let writer: Presence;
    let reader: Presence;
    suites += 1;
    const prefix = `conf${process.pid}x${suites}x${Date.now().toString(36)}`;
    const key = (name: string) => `${prefix}-${name}`;
    const timeout = options.timeoutMs ?? 30_000;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    beforeAll(async () => {
      harness = await makeHarness();
      writer = await harness.connect();
      reader = await harness.connect();
    }, timeout);
    afterAll(async () => harness?.close(), timeout);

    it('declares port version v1', () => {
      expect(writer.specificationVersion).toBe('v1');
    });

    it('reads what another connection set, and undefined for a key never set', async () => {
      await writer.set(key('alive'), '1', 10);
      expect(await reader.get(key('alive'))).toBe('1');
      expect(await reader.get(key('never'))).toBeUndefined();
    });

    it(
      'expires a key after its TTL',
      async () => {
        await writer.set(key('expiring'), '1', 1);
        expect(await reader.get(key('expiring'))).toBe('1');
        await sleep(1_300);
        expect(await reader.get(key('expiring'))).toBeUndefined();
      },
      timeout,
    );

    it(
      'a new set replaces the value and restarts the TTL',
      async () => {
        await writer.set(key('beat'), '1', 1);
        await sleep(700);
        await writer.set(key('beat'), '2', 1);
        await sleep(700);
        expect(await reader.get(key('beat'))).toBe('2');
      },
      timeout,
    );

    if (options.getEntry) {
      presenceEntryConformance(
        () => writer,
        () => reader,
        key,
        sleep,
      );
    }

    if (options.scan) {
      presenceScanConformance(
        () => writer,
        () => reader,
        key,
        sleep,
      );
    }

    it(
      'fails with a typed error while the backend is down (unknown, not absent), and serves once back',
      async () => {
        await writer.set(key('down'), '1', 30);
        await harness.outage.stop();
        try {
          expectTyped(await reader.get(key('down')).catch((error: unknown) => error));
          if (options.getEntry) {
            const failed = await reader.getEntry?.(key('down')).catch((error: unknown) => error);
            expectTyped(failed);
          }
          expectTyped(await writer.set(key('down'), '1', 30).catch((error: unknown) => error));
        } finally {
          await harness.outage.start();
        }
        await eventually(() => writer.set(key('down'), '2', 30));
        expect(await eventually(() => reader.get(key('down')))).toBe('2');
      },
      timeout,
    );
  });
}
