/**
 * The seed's crash takeover on a slow store: presence expires at most 10 s after the last
 * beat, the silence must last one beat (3 s), and the retry spacing adds up to 2 s, so the
 * takeover lands 10 to 15 s after the crash. When the beat comes due during the attempt after
 * a "stopped" read, the next read counts as soon as the 0.5 s read spacing allows it: a whole
 * 2 s park there would land the takeover past 15 s. The presence here cannot tell when a key
 * expires, so reads keep the park schedule (one that can: crash-read-on-time.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverEvent, ErrorCode, type Profile } from '../src/index.js';
import { MemoryMessenger, MemoryPresence, MemoryStore, VirtualClock } from '../src/testing.js';
import { recordingLogger, slowServers, withoutExpiry } from './helpers.js';

/**
 * Server A holds p1 and crashes right after a beat; B's player joins at that instant. Every
 * store call takes `storeMs`, every presence call 10 ms; B's presence reads from the
 * `failReadsFrom`-th (0-based) on fail `failedReads` times (two: one read and its retry, an
 * "unknown" answer).
 */
async function slowStoreCrash(storeMs: number, failReadsFrom?: number, failedReads = 2) {
  const clock = new VirtualClock();
  const beats = new MemoryPresence(clock);
  const log = recordingLogger();
  const shared = { store: new MemoryStore(), messenger: new MemoryMessenger(), log };
  const presenceFor = () => withoutExpiry(beats);
  const server = slowServers(clock, shared, { storeMs, presenceMs: 10, presenceFor });
  const a = server('A');
  const b = server('B');
  await clock.run(a.driver.load('p1'));
  await clock.run(a.handoff.beat());
  const crashedAt = clock.now();
  // A dies: no more beats, no reply, no write.
  await a.handoff.destroy();
  a.connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
  if (failReadsFrom !== undefined) {
    b.presence.faults.inject({
      kind: 'fail',
      operation: 'get',
      skip: failReadsFrom,
      times: failedReads,
    });
  }
  const reads: Array<[number, string]> = [];
  b.driver.on((event: DataDriverEvent) => {
    if (event.type === 'presence.read') reads.push([clock.now() - crashedAt, event.answer]);
  });
  const profile = await clock.run(b.driver.load('p1').catch((error: unknown) => error));
  return {
    profile: profile as Profile<{ coins: number }>,
    waitedMs: clock.now() - crashedAt,
    reads,
    log,
  };
}

const ALIVE: Array<[number, string]> = [
  [1_010, 'alive'],
  [2_520, 'alive'],
  [5_030, 'alive'],
  [7_540, 'alive'],
];

describe('a crash takeover on a slow store (500 ms store calls)', () => {
  it('lands one beat after the first empty read: 13.57 s, not a 2 s park later', async () => {
    const { profile, waitedMs, reads, log } = await slowStoreCrash(500);
    expect(profile.active).toBe(true);
    expect(log.warnings()).toContain(
      'took the lock of p1 from server A, which stopped beating presence.',
    );
    // The first empty read answers at 10.05 s, the next at 12.56 s (2.51 s later: no proof);
    // the attempt after it ends at 13.06 s, past the beat due at 13.05 s, so the read that
    // proves runs at once (0.5 s after the last read's start at 12.55 s) and answers at
    // 13.07 s; the attempt that takes the lock ends at 13.57 s. A whole 2 s park there read at
    // 15.01 s and took the lock at 15.51 s.
    expect(reads).toEqual([
      ...ALIVE,
      [10_050, 'stopped'],
      [12_560, 'stopped'],
      [13_070, 'stopped'],
    ]);
    expect(waitedMs).toBe(13_570);
  });

  it('at 600 ms store calls too: the read that proves waits for the spacing, 14.37 s', async () => {
    const { profile, waitedMs, reads } = await slowStoreCrash(600);
    expect(profile.active).toBe(true);
    // Reads at 10.55 s and 13.16 s (no proof); the attempt after that one ends at 13.76 s,
    // 0.61 s after that read started: the proving read answers at 13.77 s, the take ends at
    // 14.37 s (a whole park: 15.61 s).
    expect(reads.slice(4)).toEqual([
      [10_550, 'stopped'],
      [13_160, 'stopped'],
      [13_770, 'stopped'],
    ]);
    expect(waitedMs).toBe(14_370);
  });

  it('reads again at once after an unknown answer: the takeover at 13.84 s, not 15.51 s', async () => {
    // B's sixth read (at 12.55 s) fails with its retry: "unknown" at 12.82 s.
    const { profile, waitedMs, reads } = await slowStoreCrash(500, 5);
    expect(profile.active).toBe(true);
    // The read again at once answers at 12.83 s, under a beat after the first empty read; the
    // attempt after it ends at 13.33 s, past the beat due at 13.05 s, so the proving read runs
    // at once (0.78 s after the last read started) and the take ends at 13.84 s. The whole
    // park the unknown answer used to cost ran to the 15 s deadline: a take at 15.51 s.
    expect(reads).toEqual([
      ...ALIVE,
      [10_050, 'stopped'],
      [12_820, 'unknown'],
      [12_830, 'stopped'],
      [13_340, 'stopped'],
    ]);
    expect(waitedMs).toBe(13_840);
  });

  it('in a presence outage, reads again only after the first unknown answer: no stream of reads', async () => {
    // From B's sixth read on, every presence read fails: each answer is unknown.
    const { profile, reads, waitedMs } = await slowStoreCrash(500, 5, Number.POSITIVE_INFINITY);
    expect(profile).toMatchObject({ code: ErrorCode.Locked });
    // The first unknown answer is read again at once (unknown at 13.09 s); after that the
    // park runs whole, to the deadline, where the last read (with its retry) answers at
    // 15.27 s and the last attempt ends at 15.77 s.
    expect(reads.slice(5)).toEqual([
      [12_820, 'unknown'],
      [13_090, 'unknown'],
      [15_270, 'unknown'],
    ]);
    expect(waitedMs).toBe(15_770);
  });
});
