/**
 * The default join wait (15 s) has room for one failed presence read: after an unknown answer
 * (a read and its retry 0.25 s later both failed) the load reads again at once rather than a
 * whole park later, so a read that fails at the worst moment still leaves time for the
 * takeover of a crashed holder. Before, 0, 2, 8 and 10 of the 144 runs failed at 0, 10, 100
 * and 500 ms store calls. Swept over a grid: the crash instant against the holder's beat, and which of
 * the joining server's reads fails, at several store latencies.
 */
import { describe, expect, it } from 'vitest';
import type { DataDriverEvent } from '../src/index.js';
import { MemoryMessenger, MemoryPresence, MemoryStore, VirtualClock } from '../src/testing.js';
import { recordingLogger, slowServers } from './helpers.js';

/** Crash instants after a beat of the holder: 0 to 2.75 s, every 0.25 s (its beat is 3 s). */
const CRASH_AFTER_BEAT_MS = Array.from({ length: 12 }, (_, step) => step * 250);
/** Which of the joining server's presence reads fails, with its retry (0-based). */
const FAILED_READS = Array.from({ length: 12 }, (_, read) => read);
/** Store latencies: none, a LAN round trip, a slow region, and the slow-store crash test's. */
const STORE_MS = [0, 10, 100, 500];

/**
 * A holds p1 and beats every 3 s; it crashes `crashAfterBeatMs` after a beat, and B's player
 * joins at that instant. B's `failedRead`-th presence read fails, and so does its retry.
 */
async function join(storeMs: number, crashAfterBeatMs: number, failedRead: number) {
  const clock = new VirtualClock();
  const beats = new MemoryPresence(clock);
  const log = recordingLogger();
  const shared = { store: new MemoryStore(), messenger: new MemoryMessenger(), log };
  const server = slowServers(clock, shared, { storeMs, presenceMs: 10, presenceFor: () => beats });
  const a = server('A');
  const b = server('B');
  await clock.run(a.driver.load('p1'));
  // A's beats run on its timer (every 3 s from its start); the crash is timed from the last one.
  const lastBeat = Math.floor(clock.now() / 3_000) * 3_000;
  const beatAt = clock.now() === lastBeat ? lastBeat : lastBeat + 3_000;
  await clock.advanceTo(beatAt + crashAfterBeatMs);
  await a.handoff.destroy();
  a.connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
  b.presence.faults.inject({ kind: 'fail', operation: 'get', skip: failedRead, times: 2 });
  const answers: string[] = [];
  b.driver.on((event: DataDriverEvent) => {
    if (event.type === 'presence.read') answers.push(event.answer);
  });
  const loaded = await clock.run(
    b.driver.load('p1').then(
      () => true,
      () => false,
    ),
  );
  return { loaded, failedReadCounted: answers.includes('unknown') };
}

describe('the default wait with one failed presence read (and its retry)', () => {
  for (const storeMs of STORE_MS) {
    it(`takes a crashed holder over in every one of 144 runs at ${storeMs} ms store calls`, async () => {
      const failures: string[] = [];
      let unknownAnswers = 0;
      for (const crashAfterBeatMs of CRASH_AFTER_BEAT_MS) {
        for (const failedRead of FAILED_READS) {
          const { loaded, failedReadCounted } = await join(storeMs, crashAfterBeatMs, failedRead);
          if (failedReadCounted) unknownAnswers += 1;
          if (!loaded) failures.push(`crash +${crashAfterBeatMs} ms, read ${failedRead} failed`);
        }
      }
      expect(failures).toEqual([]);
      // The sweep reaches the reads that matter: in most runs the failure came before the
      // takeover (the reads after it never run).
      expect(unknownAnswers).toBeGreaterThanOrEqual(80);
    });
  }
});
