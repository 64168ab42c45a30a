/**
 * The seed: a live session is ended with the kick message "You joined another server.", which
 * runs the leave cleanups and the release save; the joining server then loads what it saved.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, Handoff } from '../src/index.js';
import {
  FaultyStore,
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger } from './helpers.js';

function fleet() {
  const clock = new VirtualClock();
  const store = new MemoryStore({ versions: { keep: 10 }, clock });
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(clock);
  const server = (jobId: string) => {
    const handoff = new Handoff({ jobId, messenger, presence, scheduler: clock });
    const connection = new FaultyStore(store, { scheduler: clock });
    const driver = new DataDriver<{ coins: number }>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store: connection,
      scheduler: clock,
      jobId,
      handoff,
      logger: recordingLogger().logger,
    });
    return { driver, store: connection, host: new MemoryHost(jobId) };
  };
  return { clock, messenger, server };
}

describe('a kick for a join elsewhere', () => {
  it('runs the leave cleanups before the release save, and the joiner loads their result', async () => {
    const { clock, server } = fleet();
    const a = server('A');
    const b = server('B');
    const cleanups: string[] = [];
    a.driver.attach(a.host, {
      onLeave: (profile, player) => {
        cleanups.push(player.id);
        profile.data.coins += 100; // e.g. refunding an item in escrow: the release saves it
      },
    });
    b.driver.attach(b.host);
    a.host.join('p1');
    await clock.advance(0);
    a.driver.profile('p1')!.data.coins = 5;
    b.host.join('p1'); // the player is still connected to A
    await clock.advance(5_000);
    expect(a.host.kicks).toEqual([{ player: 'p1', message: 'You joined another server.' }]);
    expect(cleanups).toEqual(['p1']);
    expect(b.driver.profile('p1')?.data).toEqual({ coins: 105 });
    expect(b.host.kicks).toEqual([]);
  });
});

describe('a kick for support (restoreAt, erase, the CLI)', () => {
  /** p1 plays on A with 5 coins saved; B is a support tool's driver on the same backend. */
  async function playingOnA() {
    const { clock, messenger, server } = fleet();
    const a = server('A');
    const b = server('support');
    const kicked: unknown[] = [];
    a.driver.on((event) => {
      if (event.type === 'profile.kicked')
        kicked.push({ cause: event.cause, message: event.message });
    });
    const requests: unknown[] = [];
    await messenger.subscribe('CKHandoff_A', (message) => requests.push(message));
    a.driver.attach(a.host);
    a.host.join('p1');
    await clock.advance(0);
    a.driver.profile('p1')!.data.coins = 5;
    await clock.run(a.driver.profile('p1')!.save());
    return { clock, a, b, kicked, requests };
  }

  it('erase: the holder kicks its player with kickMessages.support (cause "support"), not as for a join', async () => {
    const { clock, a, b, kicked, requests } = await playingOnA();
    await clock.run(b.driver.erase('p1'));
    expect(a.host.kicks).toEqual([
      { player: 'p1', message: 'Support is working on your data. Please rejoin in a moment.' },
    ]);
    expect(kicked).toEqual([
      { cause: 'support', message: 'Support is working on your data. Please rejoin in a moment.' },
    ]);
    expect(requests).toEqual([
      { T: 'Q', D: 'PlayerData', K: 'p1', R: 'support', L: expect.any(String), W: 'support' },
    ]);
  });

  it('restoreAt: the same kick; a player joining elsewhere afterwards is kicked as for a join again', async () => {
    const { clock, a, b, kicked, requests } = await playingOnA();
    const restored = await clock.run(b.driver.restoreAt('p1', clock.now()));
    expect(restored.data).toEqual({ coins: 5 });
    await clock.run(restored.release());
    a.host.join('p1');
    await clock.advance(0);
    b.driver.attach(b.host); // now a game server: its player's join asks A as a join does
    b.host.join('p1');
    await clock.advance(5_000);
    expect(a.host.kicks.map((kick) => kick.message)).toEqual([
      'Support is working on your data. Please rejoin in a moment.',
      'You joined another server.',
    ]);
    expect(kicked).toEqual([
      { cause: 'support', message: 'Support is working on your data. Please rejoin in a moment.' },
      { cause: 'joined-elsewhere', message: 'You joined another server.' },
    ]);
    expect(requests.map((request) => (request as { W?: string }).W)).toEqual([
      'support',
      undefined,
    ]);
  });

  it('kickMessages.support is the game’s own words when given', async () => {
    const clock = new VirtualClock();
    const messenger = new MemoryMessenger();
    const presence = new MemoryPresence(clock);
    const store = new MemoryStore();
    const server = (jobId: string, kickMessages = {}) => {
      const handoff = new Handoff({ jobId, messenger, presence, scheduler: clock });
      const options = { name: 'PlayerData', defaults: { coins: 0 }, store, scheduler: clock };
      return new DataDriver({
        ...options,
        jobId,
        handoff,
        kickMessages,
        logger: recordingLogger().logger,
      });
    };
    const a = server('A', { support: 'An admin is looking at your account.' });
    const host = new MemoryHost('A');
    a.attach(host);
    host.join('p1');
    await clock.advance(0);
    await clock.run(server('support').erase('p1'));
    expect(host.kicks).toEqual([{ player: 'p1', message: 'An admin is looking at your account.' }]);
  });
});

describe("the holder's replies", () => {
  /** Every handoff message sent to server `jobId`'s topic, with its virtual time. */
  async function inbox(clock: VirtualClock, messenger: MemoryMessenger, jobId: string) {
    const seen: Array<[number, unknown]> = [];
    const origin = clock.now();
    await messenger.subscribe(`CKHandoff_${jobId}`, (message) => {
      seen.push([clock.now() - origin, message]);
    });
    return seen;
  }

  it('replies at once to a request for a key it does not hold', async () => {
    const { clock, messenger, server } = fleet();
    const a = server('A');
    a.driver.attach(a.host);
    await clock.advance(0);
    const toB = await inbox(clock, messenger, 'B');
    await messenger.publish('CKHandoff_A', { T: 'Q', D: 'PlayerData', K: 'p9', R: 'B', L: 't' });
    await clock.advance(0);
    expect(toB).toEqual([[0, { T: 'R', D: 'PlayerData', K: 'p9' }]]);
  });

  it('kicks once for two requesters, and replies to each when the profile deactivates', async () => {
    const { clock, messenger, server } = fleet();
    const a = server('A');
    a.driver.attach(a.host);
    a.host.join('p1');
    await clock.advance(0);
    const token = a.driver.profile('p1')!.lockToken;
    const toB = await inbox(clock, messenger, 'B');
    const toC = await inbox(clock, messenger, 'C');
    for (const requester of ['B', 'C']) {
      await messenger.publish('CKHandoff_A', {
        T: 'Q',
        D: 'PlayerData',
        K: 'p1',
        R: requester,
        L: token,
      });
    }
    await clock.advance(0);
    expect(a.host.kicks).toEqual([{ player: 'p1', message: 'You joined another server.' }]);
    expect(a.driver.profile('p1')).toBeUndefined();
    expect(toB).toEqual([[0, { T: 'R', D: 'PlayerData', K: 'p1' }]]);
    expect(toC).toEqual([[0, { T: 'R', D: 'PlayerData', K: 'p1' }]]);
  });

  it('replies at once to a late request naming an older lock while a new load is in flight', async () => {
    const { clock, messenger, server } = fleet();
    const a = server('A');
    a.driver.attach(a.host);
    const received: unknown[] = [];
    a.driver.on((event) => {
      if (event.type === 'handoff.request.received') received.push(event.action);
    });
    a.store.faults.inject({ kind: 'stall', operation: 'update', key: 'PlayerData/p1' });
    a.host.join('p1'); // A's load of p1 is in flight
    await clock.advance(0);
    const toB = await inbox(clock, messenger, 'B');
    const late = { T: 'Q', D: 'PlayerData', K: 'p1', R: 'B', L: 'an-older-token' };
    await messenger.publish('CKHandoff_A', late);
    await clock.advance(0);
    expect(received).toEqual(['reply']);
    expect(toB).toEqual([[0, { T: 'R', D: 'PlayerData', K: 'p1' }]]);
  });
});
