/**
 * A load that proved a holder stopped (two empty presence reads a beat apart) takes only that
 * holder's flagged lock: a lock the same server id wrote without the flag (an older build, or a
 * driver with handoff off) is freed by age alone. Catches a planted bug of plants/plants.json.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, type Presence } from '../src/index.js';
import type { ProfileRecord } from '../src/rules.js';
import { MemoryMessenger, MemoryPresence, MemoryStore, VirtualClock } from '../src/testing.js';
import { recordingLogger, slowServers, stored } from './helpers.js';

describe('a holder proven stopped', () => {
  it('keeps a lock its server id wrote without the flag: only age frees that one', async () => {
    const clock = new VirtualClock();
    const beats = new MemoryPresence(clock);
    const store = new MemoryStore();
    const log = recordingLogger();
    // Server A's older build writes p1's lock without the flag once B's reads have proved A
    // stopped, and before B's next attempt lands.
    let firstEmptyAt: number | undefined;
    let rewritten = false;
    const readsOnB: Presence = {
      specificationVersion: 'v1',
      set: (key, value, ttl) => beats.set(key, value, ttl),
      get: async (key) => {
        const answer = await beats.get(key);
        if (key !== 'A' || answer !== undefined || rewritten) return answer;
        firstEmptyAt ??= clock.now();
        if (clock.now() - firstEmptyAt >= 3_000) {
          rewritten = true;
          await store.update('PlayerData/p1', (record) => {
            const { data, meta } = record as unknown as ProfileRecord;
            const lock = { jobId: 'A', token: 'older-build', time: clock.now(), presence: false };
            return { data, meta: { ...meta, version: meta.version + 1, lock } } as never;
          });
        }
        return answer;
      },
    };
    const shared = { store, messenger: new MemoryMessenger(), log };
    const server = slowServers(clock, shared, {
      storeMs: 10,
      presenceMs: 10,
      presenceFor: (jobId) => (jobId === 'B' ? readsOnB : beats),
    });
    const a = server('A');
    const b = server('B', { lockTtlSeconds: 60, lockWaitSeconds: 30 });
    await clock.run(a.driver.load('p1'));
    // A dies: no more beats, no reply, no write.
    await a.handoff.destroy();
    a.connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    const events: string[] = [];
    b.driver.on((event) => {
      if (event.type === 'lock.taken') events.push(event.reason);
    });
    const load = b.driver.load('p1').catch((error: { code?: string }) => error.code);
    expect(await clock.run(load)).toBe(ErrorCode.Locked);
    expect(rewritten).toBe(true);
    expect(events).toEqual([]);
    expect(stored(store, 'p1')?.meta.lock).toMatchObject({ jobId: 'A', token: 'older-build' });
  });
});
