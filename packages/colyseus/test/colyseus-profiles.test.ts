/**
 * ColyseusProfiles on a real Colyseus server in this process, real colyseus.js clients and a
 * real redis-server; "another server" is a second driver on the same Redis.
 */
import { matchMaker } from '@colyseus/core';
import { describeProbe, probed } from '@datadriver/testkit/cluster';
import * as colyseusJs from 'colyseus.js';
import { MatchMakeError, ServerError } from 'colyseus.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILED_CODE, AUTH_FAILED_MESSAGE, KICK_CLOSE_CODE } from '../src/index.js';
import { world } from './support/arena.js';
import {
  ColyseusWorld,
  earn,
  joinArena,
  leftWith,
  otherServer,
  refusalOf,
  SCALE,
  until,
} from './support/colyseus-world.js';
import { readmeBlock, runSnippet } from './support/readme-snippet.js';

const prefix = `ddtest:colyseus:${process.pid}:`;
let colyseus: ColyseusWorld;
let next = 0;
function user(label: string): string {
  next += 1;
  return `${label}-${next}`;
}

beforeAll(async () => {
  colyseus = await ColyseusWorld.start(prefix);
});

afterAll(async () => {
  await colyseus.stop();
});

function eventsOf(key: string, type?: string) {
  return colyseus.events.filter(
    (e) => (type === undefined || e.type === type) && 'key' in e && e.key === key,
  );
}

/**
 * Joins `arena` with `options` and expects the join refused as a bad user id: AUTH_FAILED and
 * the fixed message, no game code run, no player, nothing loaded; returns what was logged.
 */
async function expectAuthRefused(options: object, key: string) {
  const played = world.played.length;
  const logged = colyseus.logger.lines.length;
  const error = await refusalOf(colyseus.client().create('arena', options));
  expect(error).toBeInstanceOf(ServerError);
  expect(error).toMatchObject({ code: AUTH_FAILED_CODE, message: AUTH_FAILED_MESSAGE });
  expect(world.played.length).toBe(played);
  expect(colyseus.profiles.host.player(key)).toBeUndefined();
  expect(eventsOf(key)).toEqual([]);
  return colyseus.logger.lines.slice(logged);
}

describe('a player joining rooms of one Colyseus process', () => {
  it("onJoin resolves with the loaded profile, under this Colyseus process's lock", async () => {
    const id = user('join');
    const { room, coins } = await joinArena(colyseus.client(), id);
    expect(coins).toBe(0);
    expect(world.played).toContain(id);
    expect((await colyseus.record(id)).meta.lock?.jobId).toBe(matchMaker.processId);
    expect(colyseus.profiles.host.jobId).toBe(matchMaker.processId);
    await room.leave();
  });

  it('two rooms share one profile; leaving one keeps it loaded, leaving the last releases it', async () => {
    const id = user('rooms');
    const client = colyseus.client();
    const first = await joinArena(client, id);
    expect(await earn(first.room, 5)).toBe(5); // unsaved: the second room must see it
    const second = await joinArena(client, id);
    expect(second.coins).toBe(5);
    expect(second.roomId).not.toBe(first.roomId);
    expect(eventsOf(id, 'load.started')).toHaveLength(1);
    expect(colyseus.profiles.host.player(id)?.rooms().sort()).toEqual(
      [first.roomId, second.roomId].sort(),
    );

    await first.room.leave();
    await until(() => colyseus.profiles.host.player(id)?.rooms().length === 1);
    expect(colyseus.driver.profile(id)?.active).toBe(true);
    expect(eventsOf(id, 'profile.released')).toHaveLength(0);
    expect((await colyseus.record(id)).meta.lock?.jobId).toBe(matchMaker.processId);
    expect(await earn(second.room, 1)).toBe(6);

    await second.room.leave();
    await until(async () => (await colyseus.record(id)).meta.lock === undefined);
    expect(colyseus.profiles.host.player(id)).toBeUndefined();
    expect((await colyseus.record(id)).data).toEqual({ coins: 6 });
  });

  it("a host listener that throws does not keep the next from hearing of the player, and the failed join's profile is released", async () => {
    const id = user('listeners');
    const heard: string[] = [];
    const offThrowing = colyseus.profiles.host.onPlayerAdded(() => {
      throw new Error('a game bug');
    });
    const offHearing = colyseus.profiles.host.onPlayerAdded((player) => heard.push(player.id));
    try {
      expect(await refusalOf(joinArena(colyseus.client(), id))).toMatchObject({
        message: 'a game bug',
      });
    } finally {
      offThrowing();
      offHearing();
    }
    expect(heard).toEqual([id]);
    await until(() => colyseus.profiles.host.player(id) === undefined);
    await until(async () => eventsOf(id, 'profile.released').length === 1);
    expect((await colyseus.record(id)).meta.lock).toBeUndefined();
  });

  it("'__proto__' is an ordinary user id", async () => {
    const { room, coins } = await joinArena(colyseus.client(), '__proto__');
    expect(coins).toBe(0);
    expect(colyseus.profiles.host.player('__proto__')?.id).toBe('__proto__');
    await room.leave();
  });

  it("a client without a user id from onAuth fails to join with AUTH_FAILED and 'Authentication failed.', the reason logged, no game code run", async () => {
    const logged = await expectAuthRefused({}, '');
    expect(logged).toEqual([
      expect.objectContaining({ level: 'warn', message: expect.stringContaining('is missing') }),
    ]);
  });
});

describe('user ids a client could send', () => {
  it.each([
    ['a lone surrogate', 'a\uD800b', 'lone surrogate'],
    ['257 UTF-8 bytes', `${'é'.repeat(128)}x`, 'is 257 UTF-8 bytes, over the 256 allowed'],
    ['1 MB', 'x'.repeat(1_000_000), 'is 1000000 UTF-8 bytes, over the 256 allowed'],
  ])(
    '%s is refused with AUTH_FAILED before any load, the reason logged without the id',
    async (_, id, reason) => {
      const logged = await expectAuthRefused({ user: id }, id);
      expect(logged).toEqual([
        expect.objectContaining({ level: 'warn', message: expect.stringContaining(reason) }),
      ]);
      expect(logged[0]?.message).not.toContain(id);
    },
  );

  it('256 UTF-8 bytes is a user id like any other', async () => {
    const id = 'é'.repeat(128);
    const { room, coins } = await joinArena(colyseus.client(), id);
    expect(coins).toBe(0);
    expect((await colyseus.record(id)).meta.lock?.jobId).toBe(matchMaker.processId);
    await room.leave();
  });

  it('an auth whose own userId is null is refused, not read as its id', async () => {
    const logged = await expectAuthRefused({ auth: { userId: null, id: 'fallback' } }, 'fallback');
    expect(logged).toEqual([
      expect.objectContaining({ level: 'warn', message: expect.stringContaining('is missing') }),
    ]);
  });
});

describe('another server asks for the player', () => {
  it("a live player is kicked from every room here with the close code and 'You joined another server.', coins kept", async () => {
    const id = user('kick');
    const client = colyseus.client();
    const plain = await joinArena(client, id);
    const holding = await joinArena(client, id, { name: 'arena-reconnect' });
    expect(await earn(plain.room, 7)).toBe(7);
    const elsewhere = await otherServer(prefix, `elsewhere-${id}`);
    try {
      const leaves = [leftWith(plain.room), leftWith(holding.room)];
      const token = holding.room.reconnectionToken;
      // A probe beside the join times this machine: its slack goes on top of the scaled bound.
      const { value: loaded, figures } = await probed(colyseus.ports, () => elsewhere.join(id));
      expect(loaded.coins).toBe(7);
      // The seed's live hand-over: about one save (1.5 s is the fail-closed wait, scaled).
      const bound = 1_500 * SCALE + figures.slackMs;
      expect(loaded.waitedMs, describeProbe('the hand-over', figures)).toBeLessThan(bound);
      expect(await Promise.all(leaves)).toEqual([
        { code: KICK_CLOSE_CODE, reason: 'You joined another server.' },
        { code: KICK_CLOSE_CODE, reason: 'You joined another server.' },
      ]);
      expect(colyseus.profiles.host.player(id)).toBeUndefined();
      // The room that offers reconnections held no seat for the kicked client.
      await until(() => world.reconnections.get(holding.room.sessionId) === 'gave up', 1_000);
      await expect(client.reconnect(token)).rejects.toThrow();
      expect((await colyseus.record(id)).meta.lock?.jobId).toBe(`elsewhere-${id}`);
    } finally {
      await elsewhere.stop();
    }
  });

  it("a load that fails closed fails the join with the seed's message, and no game code runs", async () => {
    const id = user('locked');
    // An older build: its lock has no presence flag and it answers no request.
    const old = await otherServer(prefix, `old-${id}`, { handoff: false, jobId: `old-${id}` });
    try {
      await old.driver.load(id);
      const started = performance.now();
      const error = await refusalOf(colyseus.client().create('arena', { user: id }));
      // colyseus.js rejects a join that onJoin refused with a ServerError, not a MatchMakeError.
      expect(error).toBeInstanceOf(ServerError);
      expect(error).not.toBeInstanceOf(MatchMakeError);
      expect(error).toMatchObject({
        code: KICK_CLOSE_CODE,
        message: 'Your data is still in use on another server. Please rejoin in a moment.',
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(15_000 * SCALE);
      expect(world.played).not.toContain(id);
      expect(colyseus.profiles.host.player(id)).toBeUndefined();
      expect((await colyseus.record(id)).meta.lock?.jobId).toBe(`old-${id}`);
    } finally {
      await old.stop();
    }
  });
});

describe("the README's client snippet", () => {
  it('shows the reason of a kick and the message of a join that failed closed', async () => {
    const kicked = user('readme-kicked');
    const locked = user('readme-locked');
    const { room } = await joinArena(colyseus.client(), kicked);
    const old = await otherServer(prefix, `old-${locked}`, {
      handoff: false,
      jobId: `old-${locked}`,
    });
    const elsewhere = await otherServer(prefix, `elsewhere-${kicked}`);
    try {
      await old.driver.load(locked);
      const shown: string[] = [];
      const snippet = runSnippet(
        readmeBlock('**The client**'),
        { 'colyseus.js': colyseusJs },
        {
          client: colyseus.client(),
          room,
          token: locked,
          showMessage: (m: string) => shown.push(m),
        },
      );
      await elsewhere.join(kicked); // kicks `room` while the snippet's join waits for the lock
      await snippet;
      expect(shown).toHaveLength(2);
      expect(shown).toEqual(
        expect.arrayContaining([
          'You joined another server.',
          'Your data is still in use on another server. Please rejoin in a moment.',
        ]),
      );
    } finally {
      await Promise.all([old.stop(), elsewhere.stop()]);
    }
  });
});

describe('a kick while onJoin still runs', () => {
  it('after the profile loaded: the client is made to leave with the kick once it has joined', async () => {
    const id = user('gated');
    let open = () => {};
    world.gate = new Promise((resolve) => {
      open = resolve;
    });
    const joining = refusalOf(colyseus.client().create('arena-gated', { user: id }));
    await until(() => world.gated.includes(id));
    const elsewhere = await otherServer(prefix, `elsewhere-${id}`);
    try {
      expect((await elsewhere.join(id)).coins).toBe(0);
      expect(colyseus.profiles.host.player(id)).toBeUndefined();
      open(); // onJoin goes on past its profile and succeeds
      expect(await joining).toMatchObject({
        code: KICK_CLOSE_CODE,
        message: 'You joined another server.',
      });
      expect(colyseus.profiles.host.player(id)).toBeUndefined();
      expect((await colyseus.record(id)).meta.lock?.jobId).toBe(`elsewhere-${id}`);
    } finally {
      world.gate = Promise.resolve();
      await elsewhere.stop();
    }
  });
});

describe("a room's reconnection wait", () => {
  it('keeps the profile while the seat is held; the reconnected client carries on with it', async () => {
    const id = user('reconnect');
    const client = colyseus.client();
    const { room } = await joinArena(client, id, { name: 'arena-reconnect' });
    expect(await earn(room, 3)).toBe(3);
    room.connection.close(); // dropped, not consented: the room holds the seat
    await until(() => world.reconnections.get(room.sessionId) === 'held');
    await new Promise((resolve) => setTimeout(resolve, 200)); // time for a wrong release to show
    expect(colyseus.profiles.host.player(id)?.rooms()).toEqual([room.roomId]);
    expect(eventsOf(id, 'profile.released')).toHaveLength(0);

    const again = await client.reconnect(room.reconnectionToken);
    await until(() => world.reconnections.get(room.sessionId) === 'reconnected');
    expect(await earn(again, 1)).toBe(4);
    await again.leave();
    await until(async () => (await colyseus.record(id)).meta.lock === undefined);
    expect((await colyseus.record(id)).data).toEqual({ coins: 4 });
  });

  it('a kick during the wait gives up the seat and releases the profile to the other server', async () => {
    const id = user('waiting');
    const client = colyseus.client();
    const { room } = await joinArena(client, id, { name: 'arena-reconnect' });
    expect(await earn(room, 2)).toBe(2);
    const token = room.reconnectionToken;
    room.connection.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(colyseus.profiles.host.player(id)).toBeDefined();
    const elsewhere = await otherServer(prefix, `elsewhere-${id}`);
    try {
      expect((await elsewhere.join(id)).coins).toBe(2);
      await until(() => world.reconnections.get(room.sessionId) === 'gave up', 1_000);
      await expect(client.reconnect(token)).rejects.toThrow();
    } finally {
      await elsewhere.stop();
    }
  });
});
