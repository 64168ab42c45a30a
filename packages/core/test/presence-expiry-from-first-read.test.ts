/**
 * A presence that counts a key's TTL from each reader's first read (`expiryCountedFrom:
 * 'first-read'`, as DynamoPresence does) reads a crashed server as stopped later than one that
 * counts from the last beat. The default join wait grows by one presence TTL for it, so the
 * player waits for the takeover instead of being kicked.
 */
import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode, type Presence } from '../src/index.js';
import { defaultLockWaitSeconds } from '../src/rules.js';
import { MemoryMessenger, MemoryPresence, MemoryStore, VirtualClock } from '../src/testing.js';
import { recordingLogger, slowServers } from './helpers.js';

/** The shared map of beats: each `set` writes a fresh beat id, read by every reader. */
class Beats {
  private next = 0;
  readonly map: MemoryPresence;
  constructor(clock: VirtualClock) {
    this.map = new MemoryPresence(clock);
  }
  write(key: string, ttlSeconds: number): Promise<void> {
    this.next += 1;
    // Kept far longer than the TTL, as DynamoDB's TTL deletes late: readers judge expiry.
    return this.map.set(key, `${this.next}/${ttlSeconds}`, 86_400);
  }
}

/** One reader's view: a beat counts as expired once this reader has seen it for a TTL. */
class SightingPresence implements Presence {
  readonly specificationVersion = 'v1';
  readonly expiryCountedFrom?: 'first-read';
  private readonly seen = new Map<string, { beat: string; since: number }>();

  constructor(
    private readonly beats: Beats,
    private readonly clock: VirtualClock,
    declared: boolean,
  ) {
    if (declared) this.expiryCountedFrom = 'first-read';
  }

  set(key: string, _value: string, ttlSeconds: number): Promise<void> {
    return this.beats.write(key, ttlSeconds);
  }

  async get(key: string): Promise<string | undefined> {
    const beat = await this.beats.map.get(key);
    if (beat === undefined) return undefined;
    const ttlMs = Number(beat.split('/')[1]) * 1000;
    const sighting = this.seen.get(key);
    if (sighting?.beat !== beat) {
      this.seen.set(key, { beat, since: this.clock.now() });
      return '1';
    }
    return this.clock.now() - sighting.since < ttlMs ? '1' : undefined;
  }
}

/** Server A holds p1 and crashes right after a beat; B's player joins at that instant. */
async function crashThenJoin(declared: boolean, lockWaitSeconds?: number) {
  const clock = new VirtualClock();
  const beats = new Beats(clock);
  const log = recordingLogger();
  const shared = { store: new MemoryStore(), messenger: new MemoryMessenger(), log };
  // The in-memory latencies of the testkit's scenarios: 100 ms per store call, 10 ms per
  // presence call; each server its own sightings of the beats.
  const server = slowServers(clock, shared, {
    storeMs: 100,
    presenceMs: 10,
    presenceFor: () => new SightingPresence(beats, clock, declared),
  });
  const options = lockWaitSeconds === undefined ? {} : { lockWaitSeconds };
  const a = server('A', options);
  const b = server('B', options);
  await clock.run(a.driver.load('p1'));
  await clock.run(a.handoff.beat());
  // A dies: no more beats, no reply, no write.
  await a.handoff.destroy();
  a.connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
  const joined = clock.now();
  const outcome = await clock.run(
    b.driver.load('p1').then(
      (profile) => ({ profile }),
      (error: unknown) => ({ error }),
    ),
  );
  return { outcome, waitedMs: clock.now() - joined, log };
}

describe("a presence that counts expiry from each reader's first read", () => {
  it('is waited for one presence TTL longer by default: 25 s at the seed timings, 15 s otherwise', () => {
    expect(defaultLockWaitSeconds({ expiryCountedFrom: 'first-read' }, 10)).toBe(25);
    expect(defaultLockWaitSeconds({ expiryCountedFrom: 'first-read' }, 1)).toBe(16);
    expect(defaultLockWaitSeconds({ expiryCountedFrom: 'set' }, 10)).toBe(15);
    expect(defaultLockWaitSeconds({}, 10)).toBe(15);
    expect(defaultLockWaitSeconds(undefined, 10)).toBe(15);
  });

  it('keeps the joining player waiting at default settings until the crashed holder is taken over', async () => {
    const { outcome, waitedMs, log } = await crashThenJoin(true);
    expect('profile' in outcome && outcome.profile.active).toBe(true);
    expect(log.warnings()).toContain(
      'took the lock of p1 from server A, which stopped beating presence.',
    );
    // B first reads A's beat at its first wake (0.61 s) and finds it stopped at the first wake
    // a TTL after that (12.27 s; a TTL from the last beat would have allowed the wake at
    // 10.16 s), and again one beat later (15.27 s): the load that takes the lock ends at
    // 15.38 s, past the seed's 15 s.
    expect(waitedMs).toBe(15_380);
  });

  it('without the declaration, the same crash fails closed after the seed default of 15 s', async () => {
    const { outcome, waitedMs } = await crashThenJoin(false);
    expect('error' in outcome && DataDriverError.is(outcome.error, ErrorCode.Locked)).toBe(true);
    // The last attempt starts at the 15 s deadline (after its presence read) and fails.
    expect(waitedMs).toBe(15_110);
  });

  it('never lengthens a lockWaitSeconds that was set', async () => {
    const { outcome, waitedMs } = await crashThenJoin(true, 15);
    expect('error' in outcome && DataDriverError.is(outcome.error, ErrorCode.Locked)).toBe(true);
    expect(waitedMs).toBe(15_110);
  });
});
