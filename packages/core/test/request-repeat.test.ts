/**
 * The seed: a join waiting on another server's lock publishes a request and repeats it every
 * 4 s while it waits. The repeats keep their own time, not the attempts' (0.5 s doubling to
 * 2 s), so they go out at 0, 4, 8 and 12 s of a 15 s wait.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, Handoff } from '../src/index.js';
import {
  FaultyMessenger,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger } from './helpers.js';

describe('a join waiting on a live holder that never answers', () => {
  it('repeats its request at 0, 4, 8 and 12 s, then fails closed at 15 s', async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const bus = new MemoryMessenger();
    const presence = new MemoryPresence(clock);
    const server = (jobId: string) => {
      const messenger = new FaultyMessenger(bus, { scheduler: clock });
      const handoff = new Handoff({ jobId, messenger, presence, scheduler: clock });
      const driver = new DataDriver({
        name: 'PlayerData',
        defaults: { coins: 0 },
        store,
        scheduler: clock,
        jobId,
        handoff,
        logger: recordingLogger().logger,
      });
      return { driver, messenger };
    };
    const a = server('A');
    const b = server('B');
    await clock.run(a.driver.load('p1'));
    // A beats presence (alive) but hears none of B's requests.
    a.messenger.faults.inject({
      kind: 'drop',
      operation: 'deliver',
      times: Number.POSITIVE_INFINITY,
    });
    const sent: number[] = [];
    const started = clock.now();
    b.driver.on((event) => {
      if (event.type === 'handoff.request.sent') sent.push(event.time - started);
    });
    const failed = await clock.run(b.driver.load('p1').catch((error: unknown) => error));
    expect(failed).toMatchObject({ code: ErrorCode.Locked });
    expect(clock.now() - started).toBe(15_000);
    expect(sent).toEqual([0, 4_000, 8_000, 12_000]);
    await clock.advance(10_000);
    expect(sent).toHaveLength(4); // the load ended: no more requests
  });
});
