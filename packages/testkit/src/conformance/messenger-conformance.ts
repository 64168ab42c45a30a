/**
 * What every Messenger adapter must do on its real backend: deliver what was published to the
 * topic's subscribers only, to each connection that subscribed, without assuming order;
 * stop on unsubscribe; fail with typed errors while the backend is down.
 */
import type { JsonObject, Messenger } from '@datadriver/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, expectTyped, type Outage } from './outage.js';

export interface MessengerHarness {
  /** A new connection (one per server). */
  connect(): Promise<Messenger>;
  /** Publishes bytes that are not a JSON object to `topic`, past the adapter (optional). */
  publishRaw?(topic: string, payload: string): Promise<void>;
  outage: Outage;
  close(): Promise<void>;
}

export interface MessengerConformanceOptions {
  /** How long a delivery may take on this backend (default 5 s). */
  readonly deliveryMs?: number;
  readonly timeoutMs?: number;
}

function inbox() {
  const messages: unknown[] = [];
  return {
    messages,
    handler: (message: unknown) => void messages.push(message),
  };
}

async function waitFor(condition: () => boolean, limitMs: number): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let suites = 0;

export function messengerConformance(
  name: string,
  makeHarness: () => Promise<MessengerHarness>,
  options: MessengerConformanceOptions = {},
): void {
  describe(`Messenger conformance: ${name}`, () => {
    let harness: MessengerHarness;
    let sender: Messenger;
    let receiver: Messenger;
    suites += 1;
    const prefix = `CKHandoff_conf${process.pid}x${suites}x${Date.now().toString(36)}`;
    const topic = (name: string) => `${prefix}-${name}`;
    const deliveryMs = options.deliveryMs ?? 5_000;
    const timeout = options.timeoutMs ?? 30_000;

    beforeAll(async () => {
      harness = await makeHarness();
      sender = await harness.connect();
      receiver = await harness.connect();
    }, timeout);
    afterAll(async () => harness?.close(), timeout);

    it('declares port version v1', () => {
      expect(sender.specificationVersion).toBe('v1');
    });

    it("delivers a published object, unchanged, to the topic's subscriber on another connection", async () => {
      const box = inbox();
      const subscription = await receiver.subscribe(topic('one'), box.handler);
      const message: JsonObject = {
        T: 'Q',
        D: 'PlayerData',
        K: 'user/42 ü',
        R: 'server-b',
        L: 'token',
      };
      await sender.publish(topic('one'), message);
      await waitFor(() => box.messages.length > 0, deliveryMs);
      expect(box.messages).toContainEqual(message);
      await subscription.unsubscribe();
    });

    it('delivers only to the addressed topic', async () => {
      const addressed = inbox();
      const other = inbox();
      const a = await receiver.subscribe(topic('to'), addressed.handler);
      const b = await receiver.subscribe(topic('other'), other.handler);
      await sender.publish(topic('to'), { n: 1 });
      await waitFor(() => addressed.messages.length > 0, deliveryMs);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(addressed.messages).toContainEqual({ n: 1 });
      expect(other.messages).toEqual([]);
      await Promise.all([a.unsubscribe(), b.unsubscribe()]);
    });

    it('delivers every one of many messages, in whatever order', async () => {
      const box = inbox();
      const subscription = await receiver.subscribe(topic('many'), box.handler);
      const count = 50;
      await Promise.all(
        Array.from({ length: count }, (_, n) => sender.publish(topic('many'), { n })),
      );
      await waitFor(
        () => new Set(box.messages.map((m) => (m as { n: number }).n)).size === count,
        deliveryMs,
      );
      const seen = [...new Set(box.messages.map((m) => (m as { n: number }).n))].sort(
        (a, b) => a - b,
      );
      expect(seen).toEqual(Array.from({ length: count }, (_, n) => n));
      await subscription.unsubscribe();
    });

    it('stops delivering after unsubscribe', async () => {
      const box = inbox();
      const subscription = await receiver.subscribe(topic('stop'), box.handler);
      await sender.publish(topic('stop'), { n: 1 });
      await waitFor(() => box.messages.length > 0, deliveryMs);
      await subscription.unsubscribe();
      await subscription.unsubscribe(); // idempotent
      await sender.publish(topic('stop'), { n: 2 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(box.messages).not.toContainEqual({ n: 2 });
    });

    it('accepts a publish to a topic nobody subscribes to', async () => {
      await expect(sender.publish(topic('nobody'), { n: 1 })).resolves.toBeUndefined();
    });

    it('ignores a payload that is not a JSON object, and keeps delivering', async () => {
      if (!harness.publishRaw) return; // the backend carries only what the adapter sends
      const box = inbox();
      const subscription = await receiver.subscribe(topic('raw'), box.handler);
      await harness.publishRaw(topic('raw'), 'not json {');
      await sender.publish(topic('raw'), { n: 3 });
      await waitFor(() => box.messages.length > 0, deliveryMs);
      expect(box.messages).toEqual([{ n: 3 }]);
      await subscription.unsubscribe();
    });

    it(
      'fails a publish with a typed error while the backend is down, and delivers once it is back',
      async () => {
        const box = inbox();
        const subscription = await receiver.subscribe(topic('down'), box.handler);
        await harness.outage.stop();
        try {
          expectTyped(
            await sender.publish(topic('down'), { n: 1 }).catch((error: unknown) => error),
          );
        } finally {
          await harness.outage.start();
        }
        await eventually(async () => {
          await sender.publish(topic('down'), { n: 2 });
          await waitFor(() => box.messages.some((m) => (m as { n: number }).n === 2), 1_000);
          if (!box.messages.some((m) => (m as { n: number }).n === 2))
            throw new Error('not delivered yet');
        });
        expect(box.messages).toContainEqual({ n: 2 });
        await subscription.unsubscribe();
      },
      timeout,
    );
  });
}
