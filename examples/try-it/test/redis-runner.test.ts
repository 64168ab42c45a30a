/**
 * Every case on real game-server processes and a real redis-server (one per test run, from
 * tools/backends): who holds the lock afterwards, the data that loaded, the kick messages, and
 * the waits, within bounds generous enough for a busy two-core machine. Cases play one after
 * the other, as a person clicking through the page would.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Aborted } from '../src/aborted.js';
import { CASES } from '../src/catalog.js';
import { REDIS_SCRIPTS } from '../src/redis/cases/index.js';
import { RedisCaseRunner } from '../src/redis/redis-runner.js';
import type { TimelineEntry } from '../src/stream.js';
import { gameServerChildren } from './support/children.js';
import { recordOn } from './support/record.js';

const JOINED_ELSEWHERE = 'You joined another server.';
const IN_USE = 'Your data is still in use on another server. Please rejoin in a moment.';
/** Extra time any real wait may take on a loaded machine. */
const SLACK_MS = 2_500;
const CASE_MS = 90_000;

let runner: RedisCaseRunner;

beforeAll(async () => {
  runner = await RedisCaseRunner.connect(inject('redisUrl'));
});

afterAll(async () => {
  await runner?.close();
});

function play(caseId: string) {
  return recordOn(runner, caseId, { speed: 'instant' });
}

/** The entries' `server type` in order, for checking that some happen in a given order. */
function types(entries: readonly TimelineEntry[]): string[] {
  return entries.map((entry) => `${entry.server} ${entry.type}`);
}

/** `expected` appear in `actual` in this order (other entries may come between). */
function inOrder(actual: readonly string[], expected: readonly string[]): void {
  let from = 0;
  for (const wanted of expected) {
    const at = actual.indexOf(wanted, from);
    expect(
      at,
      `${wanted} after ${expected.slice(0, expected.indexOf(wanted)).join(', ')} in ${actual.join(', ')}`,
    ).toBeGreaterThanOrEqual(0);
    from = at + 1;
  }
}

describe('the Redis runner', () => {
  // The slow cases run the seed's constants scaled by their pace: the crash and stall cases
  // below check the waits that scale drives.
  it('plays every case of the catalog', () => {
    expect(runner.cases.map((info) => info.id)).toEqual(CASES.map((info) => info.id));
    for (const info of runner.cases) expect(REDIS_SCRIPTS.has(info.id)).toBe(true);
    expect(runner).toMatchObject({ mode: 'Redis', clock: 'wall' });
  });

  it(
    'player still connected on A: A kicks its session and hands over, B loads the 11 coins',
    async () => {
      const { outcome, shown, messages } = await play('live-holder');
      expect(outcome).toMatchObject({
        server: 'B',
        kind: 'loaded',
        coins: 11,
        stored: { coins: 11, holder: 'B' },
      });
      expect(outcome.text).toContain(`A told the old connection “${JOINED_ELSEWHERE}”`);
      inOrder(types(shown), [
        'B load.started',
        'B handoff.request.sent',
        'A handoff.request.received',
        'A profile.kicked',
        'A profile.released',
        'A handoff.reply.sent',
        'B load.loaded',
      ]);
      expect(shown.find((entry) => entry.type === 'profile.kicked')?.text).toBe(
        `Kicks the player: “${JOINED_ELSEWHERE}”`,
      );
      // The seed's live hand-over: under 1.5 s.
      expect(outcome.waitedMs).toBeLessThan(1_500 + SLACK_MS);
      expect(messages[0]).toMatchObject({
        kind: 'started',
        mode: 'Redis',
        servers: ['A', 'B'],
        rate: 1,
      });
      expect(messages.at(-1)).toEqual({ kind: 'outcome', t: expect.any(Number), outcome });
    },
    CASE_MS,
  );

  it(
    'A’s leave save failed: A retries the release when B asks, B loads the 12 coins',
    async () => {
      const { outcome, shown } = await play('failed-release');
      expect(outcome).toMatchObject({ server: 'B', coins: 12, stored: { coins: 12, holder: 'B' } });
      inOrder(types(shown), [
        'A player.left',
        'A profile.release-failed',
        'B load.started',
        'A handoff.request.received',
        'A profile.released',
        'B load.loaded',
      ]);
      expect(shown.find((entry) => entry.type === 'handoff.request.received')?.text).toBe(
        'Request from B: retries the failed release now',
      );
      const joined = shown.find((entry) => entry.type === 'load.started')!;
      expect(joined.t).toBeGreaterThanOrEqual(1_000); // a second after the leave
      expect(outcome.waitedMs).toBeLessThan(1_500 + SLACK_MS);
    },
    CASE_MS,
  );

  it(
    'A crashed (SIGKILL): B takes the lock after presence expires and two empty reads, with A’s last save',
    async () => {
      const { outcome, shown, entries } = await play('crashed-holder');
      expect(outcome).toMatchObject({
        server: 'B',
        kind: 'loaded',
        measuredFrom: 'last-beat',
        coins: 5,
        stored: { coins: 5, holder: 'B' },
      });
      // At scale 0.25: presence expires 2.5 s after the last beat, and the silence must last one
      // more beat (0.75 s): the seed's 10 to 16 s, four times shorter.
      expect(outcome.waitedMs).toBeGreaterThanOrEqual(2_500);
      expect(outcome.waitedMs).toBeLessThan(4_000 + SLACK_MS);
      const fromA = types(entries.filter((entry) => entry.server === 'A'));
      expect(fromA.slice(-3)).toEqual(['A presence.beat', 'A presence.beat', 'A server.crashed']);
      const reads = shown
        .filter((entry) => entry.type === 'presence.read')
        .map((entry) => entry.text);
      expect(reads[0]).toBe('Reads the presence of A: alive');
      expect(reads.filter((text) => text.endsWith('stopped')).length).toBeGreaterThanOrEqual(2);
      expect(shown.slice(-2).map((entry) => `${entry.server} ${entry.type}`)).toEqual([
        'B lock.taken',
        'B load.loaded',
      ]);
      expect(shown.at(-2)?.text).toBe(
        'Took the lock of p1 from server A, which stopped beating presence.',
      );
    },
    CASE_MS,
  );

  it(
    'A alive, its saves stalling: B never takes the lock and kicks after lockWaitSeconds',
    async () => {
      const { outcome, shown } = await play('stalled-holder');
      expect(outcome).toMatchObject({
        server: 'B',
        kind: 'kicked',
        stored: { coins: 5, holder: 'A' }, // untouched: A's lock, A's last save
      });
      expect(outcome.text).toContain(`“${IN_USE}”`);
      expect(outcome.text).toContain(`A told its session “${JOINED_ELSEWHERE}”`);
      // lockWaitSeconds at scale 0.25: 3.75 s.
      expect(outcome.waitedMs).toBeGreaterThanOrEqual(3_750);
      expect(outcome.waitedMs).toBeLessThan(3_750 + SLACK_MS);
      expect(shown.some((entry) => entry.type === 'lock.taken')).toBe(false);
      const reads = shown.filter((entry) => entry.type === 'presence.read');
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((entry) => entry.text === 'Reads the presence of A: alive')).toBe(true);
      inOrder(types(shown), [
        'B load.started',
        'A handoff.request.received',
        'A profile.kicked',
        'B load.failed',
        'B profile.kicked',
      ]);
      expect(shown.at(-1)?.text).toBe(`Kicks the player: “${IN_USE}”`);
    },
    CASE_MS,
  );

  it(
    'A on an older build (--no-handoff): nobody answers, B kicks after lockWaitSeconds, A’s session plays on',
    async () => {
      const { outcome, shown, entries } = await play('older-holder');
      expect(outcome).toMatchObject({
        server: 'B',
        kind: 'kicked',
        // untouched: A's lock, without the presence flag, and A's last save
        stored: { coins: 6, holder: 'A', presenceFlag: false },
      });
      expect(outcome.text).toMatch(
        new RegExp(
          `^B kicked the player after \\d\\.\\d+ s: “${IN_USE.replace(/\./g, '\\.')}” A’s session plays on \\(7 coins\\): no request reached it\\.$`,
        ),
      );
      // lockWaitSeconds at scale 0.25: 3.75 s.
      expect(outcome.waitedMs).toBeGreaterThanOrEqual(3_750);
      expect(outcome.waitedMs).toBeLessThan(3_750 + SLACK_MS);
      // A beats no presence and hears no request; B reads no presence (the lock has no flag).
      expect(entries.filter((entry) => entry.server === 'A')).toEqual([]);
      expect(shown.some((entry) => entry.type === 'presence.read')).toBe(false);
      expect(shown.filter((entry) => entry.type === 'handoff.request.sent').length).toBeGreaterThan(
        0,
      );
      expect(types(shown).slice(-2)).toEqual(['B load.failed', 'B profile.kicked']);
    },
    CASE_MS,
  );

  it(
    'same server, leave save held: the rejoin waits for it, then loads the 7 coins it wrote',
    async () => {
      const { outcome, shown } = await play('same-server-saving');
      expect(outcome).toMatchObject({ server: 'A', coins: 7, stored: { coins: 7, holder: 'A' } });
      inOrder(types(shown), [
        'A player.left',
        'A load.started',
        'A load.waiting',
        'A profile.released',
        'A load.loaded',
      ]);
      expect(shown.find((entry) => entry.type === 'load.waiting')?.text).toBe(
        'Waits for the leave save running here',
      );
      // Held 300 ms from the leave; the rejoin came a few ms after it.
      expect(outcome.waitedMs).toBeGreaterThanOrEqual(150);
      expect(outcome.waitedMs).toBeLessThan(300 + SLACK_MS);
    },
    CASE_MS,
  );

  it(
    'same server, leave save failed: the rejoin adopts the retained profile with its 7 coins',
    async () => {
      const { outcome, shown } = await play('same-server-adopt');
      expect(outcome).toMatchObject({ server: 'A', coins: 7, stored: { coins: 7, holder: 'A' } });
      expect(outcome.text).toMatch(/^A adopted the retained profile after \d+ ms, with 7 coins\.$/);
      inOrder(types(shown), [
        'A player.left',
        'A profile.release-failed',
        'A load.started',
        'A profile.adopted',
        'A load.loaded',
      ]);
      expect(outcome.waitedMs).toBeLessThan(SLACK_MS);
    },
    CASE_MS,
  );

  it(
    'stops a case whose page went away, killing its servers',
    async () => {
      const stop = new AbortController();
      const run = runner.run(
        'stalled-holder',
        { speed: 'instant', signal: stop.signal },
        (message) => {
          if (message.kind === 'started') stop.abort();
        },
      );
      await expect(run).rejects.toBeInstanceOf(Aborted);
      expect(await gameServerChildren()).toEqual([]);
    },
    CASE_MS,
  );

  it(
    'ends the cases still playing when the demo closes it, leaving no game server',
    async () => {
      const own = await RedisCaseRunner.connect(inject('redisUrl'));
      let closed: Promise<void> | undefined;
      const run = own.run('crashed-holder', { speed: 'instant' }, (message) => {
        if (message.kind === 'started') closed = own.close();
      });
      await expect(run).rejects.toBeInstanceOf(Aborted);
      await closed;
      expect(await gameServerChildren()).toEqual([]);
      await expect(own.run('live-holder', { speed: 'instant' }, () => undefined)).rejects.toThrow(
        'the demo is stopping',
      );
    },
    CASE_MS,
  );

  it('refuses to start on a Redis that does not answer, saying what to do', async () => {
    await expect(RedisCaseRunner.connect('redis://127.0.0.1:1')).rejects.toThrow(
      /^cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.*\)\. Start one \(redis-server --port 6379\) or run the demo without --redis\.$/,
    );
  });

  it(
    'streams each timeline in time order, and leaves no game server running',
    async () => {
      const { entries } = await play('live-holder');
      const times = entries.map((entry) => entry.t);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(await gameServerChildren()).toEqual([]);
    },
    CASE_MS,
  );

  it(
    'a gift sent while the player hops: applied once, by whichever server holds p1, who arrives on B with 111 coins',
    async () => {
      const { outcome, shown } = await play('gift-during-hop');
      expect(outcome).toMatchObject({
        server: 'B',
        kind: 'loaded',
        coins: 111,
        stored: { coins: 111, holder: 'B' },
      });
      expect(outcome.text).toMatch(
        /^B loaded p1 after \d+ ms with 111 coins: the gift of 100 applied once, by [AB]\.$/,
      );
      expect(types(shown)).toContain('B gift.sent');
      const applies = shown.filter(
        (entry) => entry.type === 'profile.saved' && entry.text.startsWith('Applies'),
      );
      expect(applies).toHaveLength(1);
      expect(outcome.waitedMs).toBeLessThan(1_500 + SLACK_MS);
    },
    CASE_MS,
  );
});
