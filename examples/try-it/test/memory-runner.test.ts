/**
 * Every case played to its outcome on the virtual clock, instantly: the timeline the page
 * draws, event by event, to the millisecond.
 */
import { describe, expect, it } from 'vitest';
import { CASES } from '../src/catalog.js';
import { REDIS_CASES } from '../src/redis/redis-catalog.js';
import { EXPECTED } from './support/expected.js';
import { line, record } from './support/record.js';

describe('the in-memory runner', () => {
  it.each(EXPECTED)('plays $id to its outcome', async (expected) => {
    const { outcome, messages } = await record(expected.id);
    expect(outcome.text).toBe(expected.outcome);
    expect(outcome.waitedMs).toBe(expected.waitedMs);
    expect(messages[0]).toMatchObject({ kind: 'started', caseId: expected.id, rate: null });
    expect(messages.at(-1)).toEqual({ kind: 'outcome', t: expect.any(Number), outcome });
  });

  it('offers one script for every case of the catalog', () => {
    expect(CASES.map((info) => info.id)).toEqual(EXPECTED.map((item) => item.id));
  });

  it('refuses a case it does not have', async () => {
    await expect(record('no-such-case')).rejects.toThrow('no case no-such-case');
  });
});

describe('player still connected on A', () => {
  it('A kicks its stale session, its leave save releases, B loads 340 ms after joining', async () => {
    const { shown, outcome } = await record('live-holder');
    // B's load (100) + request (20) + A's release save (100) + reply (20) + B's load (100).
    expect(shown.map(line)).toEqual([
      '0 B load.started',
      '100 B load.waiting',
      '100 B handoff.request.sent',
      '120 A handoff.request.received',
      '120 A profile.kicked',
      '220 A profile.released',
      '220 A handoff.reply.sent',
      '240 B handoff.reply.received',
      '340 B load.loaded',
    ]);
    expect(shown.find((entry) => entry.type === 'profile.kicked')?.text).toBe(
      'Kicks the player: “You joined another server.”',
    );
    expect(outcome).toMatchObject({ server: 'B', kind: 'loaded', coins: 11 });
  });
});

describe('A’s leave save failed', () => {
  it('A retries the release at once when B asks, and B loads 340 ms after joining', async () => {
    const { shown, outcome } = await record('failed-release');
    expect(shown.map(line)).toEqual([
      '0 A player.left',
      '100 A profile.release-failed',
      '1000 B load.started',
      '1100 B load.waiting',
      '1100 B handoff.request.sent',
      '1120 A handoff.request.received',
      '1220 A profile.released',
      '1220 A handoff.reply.sent',
      '1240 B handoff.reply.received',
      '1340 B load.loaded',
    ]);
    expect(shown[5]?.text).toBe('Request from B: retries the failed release now');
    expect(outcome).toMatchObject({ coins: 12, measuredFrom: 'join' });
  });
});

describe('A crashed', () => {
  it('B takes the lock 13.27 s after A’s last beat, after two empty reads a beat apart', async () => {
    const { entries, shown, outcome } = await record('crashed-holder');
    const fromA = entries.filter((entry) => entry.server === 'A').map(line);
    expect(fromA).toEqual([
      '3000 A presence.beat',
      '6000 A presence.beat',
      '6000 A server.crashed', // right after the beat: the worst case
    ]);
    const reads = shown
      .filter((entry) => entry.type === 'presence.read')
      .map((entry) => `${entry.t} ${entry.text.split(': ')[1]}`);
    // Alive until the key expires at 16 s (10 s after the last beat); the first empty read
    // comes at B's next wake, the second at least one beat (3 s) after it.
    expect(reads).toEqual([
      '6610 alive',
      '7720 alive',
      '9830 alive',
      '11940 alive',
      '14050 alive',
      '16160 stopped',
      '18270 stopped',
      '19170 stopped',
    ]);
    expect(shown.slice(-2).map(line)).toEqual(['19270 B lock.taken', '19270 B load.loaded']);
    expect(shown.at(-2)?.text).toBe(
      'Took the lock of p1 from server A, which stopped beating presence.',
    );
    // 19.27 s - 6 s: the seed's "about 10 to 15 s", and at least presence TTL + one beat.
    expect(outcome).toMatchObject({ waitedMs: 13_270, measuredFrom: 'last-beat', coins: 5 });
  });

  it('plays four times faster than life', () => {
    expect(CASES.find((info) => info.id === 'crashed-holder')?.pace).toBe(4);
  });
});

describe('A alive, its saves stalling', () => {
  it('B reads A alive throughout, never takes the lock, and kicks after 15.22 s', async () => {
    const { shown, outcome } = await record('stalled-holder');
    const reads = shown.filter((entry) => entry.type === 'presence.read');
    expect(reads).toHaveLength(17);
    expect(reads.every((entry) => entry.text === 'Reads the presence of A: alive')).toBe(true);
    expect(shown.some((entry) => entry.type === 'lock.taken')).toBe(false);
    // A's lock is stale by age, so B reads presence before its very first answer.
    expect(shown.slice(0, 3).map(line)).toEqual([
      '0 B load.started',
      '110 B presence.read',
      '210 B load.waiting',
    ]);
    // A kicks its stale session at B's first request; that release stalls like every save.
    expect(shown.filter((entry) => entry.server === 'A').map(line)).toEqual([
      '230 A handoff.request.received',
      '230 A profile.kicked',
      // B's request repeats every 4 s on its own timer (core's, since issue 15).
      '4230 A handoff.request.received',
      '8230 A handoff.request.received',
      '12230 A handoff.request.received',
    ]);
    // Each attempt: load (100), presence (10), load again with the answer (100).
    expect(shown.slice(-2).map(line)).toEqual(['15220 B load.failed', '15220 B profile.kicked']);
    expect(outcome).toMatchObject({ server: 'B', kind: 'kicked', waitedMs: 15_220 });
  });
});

describe('same-server rejoins', () => {
  it('while the leave save runs: waits for it (300 ms), then loads the saved record', async () => {
    const { shown, outcome } = await record('same-server-saving');
    expect(shown.map(line)).toEqual([
      '0 A player.left',
      '0 A load.started',
      '0 A load.waiting',
      '300 A profile.released',
      '400 A load.loaded',
    ]);
    expect(shown[2]?.text).toBe('Waits for the leave save running here');
    expect(outcome).toMatchObject({ waitedMs: 400, coins: 7 });
  });

  it('after the leave save failed: adopts the retained profile with one save', async () => {
    const { shown, outcome } = await record('same-server-adopt');
    expect(shown.map(line)).toEqual([
      '0 A player.left',
      '100 A profile.release-failed',
      '1000 A load.started',
      '1100 A profile.saved',
      '1100 A profile.adopted',
      '1100 A load.loaded',
    ]);
    expect(outcome).toMatchObject({ waitedMs: 100, coins: 7 });
  });
});

describe('A on an older build (handoff: false)', () => {
  it('nobody answers B’s requests and A never kicks; B kicks the player after lockWaitSeconds, 15.10 s', async () => {
    const { entries, shown, outcome } = await record('older-holder');
    // A neither beats presence nor hears the requests: nothing happens on its lane.
    expect(entries.filter((entry) => entry.server === 'A')).toEqual([]);
    // Requests go out, repeated, and no presence is read: the lock carries no presence flag.
    expect(shown.map(line)).toEqual([
      '0 B load.started',
      '100 B load.waiting',
      '100 B handoff.request.sent',
      '4100 B handoff.request.sent',
      '8100 B handoff.request.sent',
      '12100 B handoff.request.sent',
      '15100 B load.failed',
      '15100 B profile.kicked',
    ]);
    expect(outcome).toMatchObject({ server: 'B', kind: 'kicked', waitedMs: 15_100 });
  });

  it('plays four times faster than life', () => {
    expect(CASES.find((info) => info.id === 'older-holder')?.pace).toBe(4);
  });
});

describe('the catalog', () => {
  it('has the seed’s seven rows, then the messages case, each in the API’s spelling (lockWaitSeconds, not LockWaitSeconds)', () => {
    expect(CASES.filter((info) => info.group !== 'messages')).toHaveLength(7);
    expect(CASES.filter((info) => info.group === 'messages').map((info) => info.id)).toEqual([
      'gift-during-hop',
    ]);
    for (const info of CASES) {
      const words = [info.title, info.happens, info.seedWait, info.setup, info.explanation];
      expect(words.join(' ')).not.toMatch(
        /\b(LockWait|LocalHandoff|LockTtl|LockSkew)Seconds\b|Handoff = false/,
      );
    }
    expect(CASES.find((info) => info.id === 'stalled-holder')?.happens).toBe(
      'It keeps its lock, even once the lock is stale by age; the join fails closed after lockWaitSeconds.',
    );
  });

  it('names the behaviour on the page, never the specification’s nickname "the seed"', () => {
    for (const info of [...CASES, ...REDIS_CASES]) {
      const words = [info.title, info.happens, info.seedWait, info.shortWait, info.setup];
      expect([...words, info.explanation].join(' ')).not.toMatch(/\bseed/i);
    }
    expect(REDIS_CASES.find((info) => info.id === 'crashed-holder')?.explanation).toContain(
      'Every server runs the default timings four times shorter',
    );
  });
});

describe('a gift sent while the player hops from A to B', () => {
  it('waits in the inbox while the lock moves, and is applied once, by B at its load', async () => {
    const { shown, outcome } = await record('gift-during-hop');
    // B's send: the inbox write (100), then its read of the profile finds A's lock and nudges
    // A, which has released by then. B's load: as the live hand-over, then its lock (100), the
    // inbox read (100) and the one write of the gift's coins and id (100). At 100 ms both the
    // load's read and the send's inbox write land; the load, started first, reports first.
    expect(shown.map(line)).toEqual([
      '0 B load.started',
      '100 B load.waiting',
      '100 B handoff.request.sent',
      '100 B gift.sent',
      '120 A handoff.request.received',
      '120 A profile.kicked',
      '220 A profile.released',
      '220 A handoff.reply.sent',
      '240 B handoff.reply.received',
      '540 B profile.saved',
      '640 B load.loaded',
    ]);
    expect(shown.find((entry) => entry.type === 'profile.saved')?.text).toBe(
      'Applies the pending gift: its coins and its id saved in one write',
    );
    expect(outcome).toMatchObject({ server: 'B', kind: 'loaded', coins: 111 });
    expect(outcome.text).toBe(
      'B loaded p1 after 640 ms with 111 coins: the gift of 100 applied once, by B.',
    );
  });
});
