import { type Store, SystemScheduler } from '@datadriver/core/ports';
import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { describe, expect, it } from 'vitest';
import { CALIBRATION_SAMPLES, CHAIN, calibrate, SLACK_FLOOR_MS, slackFrom } from '../src/index.js';

const spread = (p90: number) => ({ p50: p90 / 2, p90, max: p90 * 2 });

describe('calibration', () => {
  it('derives the slack as 10 timers, 20 store reads, 10 presence reads and 4 messages at p90, at least the floor', () => {
    const figures = {
      timerLateMs: spread(1.5),
      storeMs: spread(2),
      presenceMs: spread(0.5),
      messageMs: spread(3.25),
    };
    expect(CHAIN).toEqual({ timers: 10, storeCalls: 20, presenceReads: 10, messages: 4 });
    expect(slackFrom(figures)).toBe(Math.ceil(10 * 1.5 + 20 * 2 + 10 * 0.5 + 4 * 3.25));
    const quiet = {
      ...figures,
      timerLateMs: spread(0),
      storeMs: spread(0.1),
      messageMs: spread(0.1),
    };
    expect(slackFrom(quiet)).toBe(SLACK_FLOOR_MS);
  });

  it('measures a few dozen round trips of each port and a timer, with real time', async () => {
    const scheduler = new SystemScheduler();
    const store = new MemoryStore();
    const messenger = new MemoryMessenger();
    const presence = new MemoryPresence(scheduler);
    let reads = 0;
    const counted: Store = {
      specificationVersion: 'v1',
      update: (key, transform) => store.update(key, transform),
      get: (key) => {
        reads += 1;
        return store.get(key);
      },
    };
    const calibration = await calibrate({ store: counted, messenger, presence });
    expect(calibration.samples).toBe(CALIBRATION_SAMPLES);
    expect(reads).toBe(CALIBRATION_SAMPLES + 1); // one warm-up call, then the samples
    for (const figure of [
      calibration.timerLateMs,
      calibration.storeMs,
      calibration.presenceMs,
      calibration.messageMs,
    ]) {
      expect(figure.p50).toBeGreaterThanOrEqual(0);
      expect(figure.p50).toBeLessThanOrEqual(figure.p90);
      expect(figure.p90).toBeLessThanOrEqual(figure.max);
    }
    expect(calibration.slackMs).toBe(slackFrom(calibration));
  });
});
