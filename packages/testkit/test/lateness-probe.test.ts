import type { Store } from '@datadriver/core';
import { SystemScheduler } from '@datadriver/core/ports';
import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { describe, expect, it } from 'vitest';
import {
  CHAIN,
  HOP_CHAIN,
  PROBE_FLOOR_MS,
  PROBE_MIN_SAMPLES,
  probed,
  slackFrom,
} from '../src/cluster/index.js';

const spread = (p90: number) => ({ p50: p90 / 2, p90, max: p90 * 2 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function ports(store: Store) {
  const scheduler = new SystemScheduler();
  return { store, messenger: new MemoryMessenger(), presence: new MemoryPresence(scheduler) };
}

describe('the lateness probe', () => {
  it("derives the slack as the timers' lateness during the wait, 20 store reads, 10 presence reads and 4 messages at p90, at least the floor", () => {
    const figures = {
      timerLateTotalMs: 15.5,
      storeMs: spread(2),
      presenceMs: spread(0.5),
      messageMs: spread(3.25),
    };
    expect(CHAIN).toEqual({ storeCalls: 20, presenceReads: 10, messages: 4 });
    expect(slackFrom(figures)).toBe(Math.ceil(15.5 + 20 * 2 + 10 * 0.5 + 4 * 3.25));
    const quiet = {
      ...figures,
      timerLateTotalMs: 0,
      storeMs: spread(0.1),
      messageMs: spread(0.1),
    };
    expect(slackFrom(quiet)).toBe(PROBE_FLOOR_MS);
  });

  it("counts a hand-over's own chain of calls, and never more than the cap or less than the floor given", () => {
    const figures = {
      timerLateTotalMs: 4,
      storeMs: spread(10),
      presenceMs: spread(2),
      messageMs: spread(5),
    };
    expect(HOP_CHAIN).toEqual({ storeCalls: 4, presenceReads: 1, messages: 2 });
    expect(slackFrom(figures, { chain: HOP_CHAIN, floorMs: 1 })).toBe(4 + 4 * 10 + 2 + 2 * 5);
    expect(slackFrom(figures)).toBe(4 + 20 * 10 + 10 * 2 + 4 * 5); // a crash takeover's
    expect(slackFrom(figures, { capMs: 299 })).toBe(244);
    expect(slackFrom({ ...figures, storeMs: spread(30) }, { capMs: 299 })).toBe(299);
    const quiet = { ...figures, timerLateTotalMs: 0, storeMs: spread(0.1), messageMs: spread(0.1) };
    expect(slackFrom(quiet, { chain: HOP_CHAIN, floorMs: 20 })).toBe(20);
  });

  it('counts its timers only beyond their idle lateness, and keeps to the cap it is given', async () => {
    const { figures } = await probed(ports(new MemoryStore()), () => pause(300), {
      chain: HOP_CHAIN,
      capMs: 40,
      floorMs: 1,
    });
    expect(figures.idleLateMs).toBeGreaterThanOrEqual(0);
    // Each 5 ms timer is late by Node's granularity even on an idle machine: not counted.
    expect(figures.timerLateTotalMs).toBeLessThan(figures.samples * figures.timerLateMs.max);
    expect(figures.slackMs).toBeLessThanOrEqual(40);
    expect(figures.slackMs).toBe(slackFrom(figures, { chain: HOP_CHAIN, capMs: 40, floorMs: 1 }));
  });

  it('samples beside the wait until it ends, and at least ten of each however short it is', async () => {
    const store = new MemoryStore();
    let reads = 0;
    const counted: Store = {
      specificationVersion: 'v2',
      update: (key, transform) => store.update(key, transform),
      get: (key) => {
        reads += 1;
        return store.get(key);
      },
    };
    const short = await probed(ports(counted), async () => 'done');
    expect(short.value).toBe('done');
    expect(short.figures.samples).toBe(PROBE_MIN_SAMPLES);
    expect(reads).toBe(PROBE_MIN_SAMPLES + 1); // one first call opens the connection
    const long = await probed(ports(counted), () => pause(300));
    expect(long.figures.samples).toBeGreaterThan(PROBE_MIN_SAMPLES);
    for (const figure of [long.figures.timerLateMs, long.figures.storeMs, long.figures.messageMs]) {
      expect(figure.p50).toBeGreaterThanOrEqual(0);
      expect(figure.p50).toBeLessThanOrEqual(figure.p90);
      expect(figure.p90).toBeLessThanOrEqual(figure.max);
    }
    expect(long.figures.slackMs).toBe(slackFrom(long.figures));
  });

  it('adds up how late its timers ran during the wait: a stalled event loop counts in full', async () => {
    const { figures } = await probed(ports(new MemoryStore()), async () => {
      await pause(50);
      const stalled = performance.now();
      while (performance.now() - stalled < 120) {} // the process cannot run its timers
      await pause(50);
    });
    expect(figures.timerLateTotalMs).toBeGreaterThanOrEqual(100);
    expect(figures.slackMs).toBeGreaterThanOrEqual(100);
  });

  it('sees a backend that turns slow during the wait', async () => {
    const store = new MemoryStore();
    let delayMs = 0;
    const slowing: Store = {
      specificationVersion: 'v2',
      update: (key, transform) => store.update(key, transform),
      get: async (key) => {
        await pause(delayMs);
        return store.get(key);
      },
    };
    const { figures } = await probed(ports(slowing), async () => {
      delayMs = 30;
      await pause(400);
    });
    expect(figures.storeMs.p90).toBeGreaterThanOrEqual(30);
    expect(figures.slackMs).toBeGreaterThanOrEqual(20 * 30);
  });
});
