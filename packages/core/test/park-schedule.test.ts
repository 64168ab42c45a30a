/**
 * The park schedule of a join that fails closed against a live holder, with handoff on, pinned
 * step by step on the virtual clock at the in-memory scenarios' latencies (100 ms a store call,
 * 10 ms a presence call): each attempt, each release request, each park (0.5 s doubling to
 * 2 s, the last cut at the deadline) and the presence read after each wake.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverEvent, ErrorCode } from '../src/index.js';
import {
  FaultyMessenger,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger, slowServers } from './helpers.js';

describe('the park schedule with handoff on', () => {
  it('attempts, requests, parks and reads, each at its exact time, to Data.Locked at 15.11 s', async () => {
    const clock = new VirtualClock();
    const beats = new MemoryPresence(clock);
    const bus = new MemoryMessenger();
    const log = recordingLogger();
    const store = new MemoryStore();
    const aBus = new FaultyMessenger(bus, { scheduler: clock });
    const latency = { storeMs: 100, presenceMs: 10, presenceFor: () => beats };
    const a = slowServers(clock, { store, messenger: aBus, log }, latency)('A');
    const b = slowServers(clock, { store, messenger: bus, log }, latency)('B');
    await clock.run(a.driver.load('p1'));
    // A is alive (it beats) but never hears B's requests.
    aBus.faults.inject({ kind: 'drop', operation: 'deliver', times: Number.POSITIVE_INFINITY });
    const started = clock.now();
    const steps: string[] = [];
    const update = b.connection.update.bind(b.connection);
    b.connection.update = (key, transform, options) => {
      steps.push(`${clock.now() - started} attempt`);
      return update(key, transform, options);
    };
    b.driver.on((event: DataDriverEvent) => {
      const at = event.time - started;
      if (event.type === 'handoff.request.sent') steps.push(`${at} request`);
      if (event.type === 'presence.read') steps.push(`${at} read ${event.answer}`);
    });
    const failed = await clock.run(b.driver.load('p1').catch((error: unknown) => error));
    expect(failed).toMatchObject({ code: ErrorCode.Locked });
    // The wait ends at the deadline (15 s); the read and the attempt after that last wake
    // decide, so the join ends one read and one attempt after it.
    expect(clock.now() - started).toBe(15_110);
    expect(steps).toEqual([
      '0 attempt',
      '100 request', // the lock found: asked at once, then every 4 s on its own timer
      // park 500: wake at 600, read (10 ms), attempt (100 ms)
      '610 read alive',
      '610 attempt',
      // park 1000
      '1720 read alive',
      '1720 attempt',
      // parks of 2000 from here
      '3830 read alive',
      '3830 attempt',
      '4100 request',
      '5940 read alive',
      '5940 attempt',
      '8050 read alive',
      '8050 attempt',
      '8100 request',
      '10160 read alive',
      '10160 attempt',
      '12100 request',
      '12270 read alive',
      '12270 attempt',
      '14380 read alive',
      '14380 attempt',
      // the last park (2000 from 14480) is cut to end at the deadline (15 s)
      '15010 read alive',
      '15010 attempt',
    ]);
  });
});
