import { describe, expect, it } from 'vitest';
import type { HandoffClient } from '../src/handoff/handoff.js';
import { parseHandoffMessage } from '../src/handoff/wire.js';
import { ErrorCode, Handoff, type JsonObject } from '../src/index.js';
import {
  FaultyMessenger,
  FaultyPresence,
  MemoryMessenger,
  MemoryPresence,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger } from './helpers.js';

function setup(jobId = 'A') {
  const clock = new VirtualClock();
  const bus = new MemoryMessenger();
  const map = new MemoryPresence(clock);
  const messenger = new FaultyMessenger(bus, { scheduler: clock });
  const presence = new FaultyPresence(map, { scheduler: clock });
  const log = recordingLogger();
  const handoff = new Handoff({ jobId, messenger, presence, scheduler: clock, logger: log.logger });
  return { clock, bus, map, messenger, presence, log, handoff };
}

function client(name: string) {
  const requests: Array<[string, string, string | undefined]> = [];
  const replies: string[] = [];
  const handoffClient: HandoffClient = {
    name,
    receiveHandoffRequest: (key, requester, token) => void requests.push([key, requester, token]),
    receiveHandoffReply: (key) => void replies.push(key),
  };
  return { handoffClient, requests, replies };
}

describe('wire format', () => {
  const rows: Array<[string, unknown, unknown]> = [
    [
      'request with token',
      { T: 'Q', D: 'PlayerData', K: 'u1', R: 'B', L: 't' },
      { T: 'Q', D: 'PlayerData', K: 'u1', R: 'B', L: 't' },
    ],
    [
      'request without token',
      { T: 'Q', D: 'PlayerData', K: 'u1', R: 'B' },
      { T: 'Q', D: 'PlayerData', K: 'u1', R: 'B' },
    ],
    [
      'request with a hand-over token',
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't', H: 'tB' },
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't', H: 'tB' },
    ],
    [
      'hand-over token without the lock seen: the request, without it',
      { T: 'Q', D: 'P', K: 'u1', R: 'B', H: 'tB' },
      { T: 'Q', D: 'P', K: 'u1', R: 'B' },
    ],
    [
      'hand-over token of the wrong type: the request, without it',
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't', H: 7 },
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't' },
    ],
    [
      'hand-over token with a lone surrogate: the request, without it',
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't', H: 'a\uD800' },
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't' },
    ],
    [
      'hand-over token over 128 bytes: the request, without it',
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't', H: 'x'.repeat(129) },
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't' },
    ],
    [
      'hand-over token with a support reason: both kept',
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't', H: 'tB', W: 'support' },
      { T: 'Q', D: 'P', K: 'u1', R: 'B', L: 't', H: 'tB', W: 'support' },
    ],
    ['reply', { T: 'R', D: 'PlayerData', K: 'u1' }, { T: 'R', D: 'PlayerData', K: 'u1' }],
    [
      'reply with extra fields, kept to the wire format',
      { T: 'R', D: 'P', K: 'k', X: 1 },
      { T: 'R', D: 'P', K: 'k' },
    ],
    [
      'reply with a handed record',
      { T: 'R', D: 'P', K: 'k', H: 'tB', V: 'v7', J: '{"data":{}}' },
      { T: 'R', D: 'P', K: 'k', H: 'tB', V: 'v7', J: '{"data":{}}' },
    ],
    [
      'reply with a handed record missing its version: the reply, without it',
      { T: 'R', D: 'P', K: 'k', H: 'tB', J: '{}' },
      { T: 'R', D: 'P', K: 'k' },
    ],
    [
      'reply with a record that is not a string: the reply, without it',
      { T: 'R', D: 'P', K: 'k', H: 'tB', V: 'v7', J: { data: {} } },
      { T: 'R', D: 'P', K: 'k' },
    ],
    [
      'reply with a record holding a lone surrogate: the reply, without it',
      { T: 'R', D: 'P', K: 'k', H: 'tB', V: 'v7', J: 'a\uD800' },
      { T: 'R', D: 'P', K: 'k' },
    ],
    [
      'reply with a version over 128 bytes: the reply, without it',
      { T: 'R', D: 'P', K: 'k', H: 'tB', V: 'v'.repeat(129), J: '{}' },
      { T: 'R', D: 'P', K: 'k' },
    ],
    [
      'reply with an empty hand-over token: the reply, without it',
      { T: 'R', D: 'P', K: 'k', H: '', V: 'v7', J: '{}' },
      { T: 'R', D: 'P', K: 'k' },
    ],
    ['missing driver', { T: 'Q', K: 'u1', R: 'B' }, undefined],
    ['missing key', { T: 'R', D: 'PlayerData' }, undefined],
    ['empty key', { T: 'R', D: 'PlayerData', K: '' }, undefined],
    ['request without requester', { T: 'Q', D: 'P', K: 'k' }, undefined],
    ['numeric key', { T: 'Q', D: 'P', K: 5, R: 'B' }, undefined],
    ['token of the wrong type', { T: 'Q', D: 'P', K: 'k', R: 'B', L: 7 }, undefined],
    ['unknown type', { T: 'X', D: 'P', K: 'k' }, undefined],
    ['not an object', 'Q', undefined],
    ['null', null, undefined],
    ['an array', [1, 2], undefined],
  ];
  it.each(rows)('%s', (_name, input, expected) => {
    expect(parseHandoffMessage(input)).toEqual(expected);
  });
});

describe('Handoff', () => {
  it("has the seed's constants", () => {
    expect(Handoff.BEAT_SECONDS).toBe(3);
    expect(Handoff.PRESENCE_TTL_SECONDS).toBe(10);
  });

  it('beats once at start and every 3 s with a 10 s TTL; start is idempotent', async () => {
    const { clock, map, handoff } = setup();
    const started = clock.now();
    const beats: number[] = [];
    handoff.on((event) => {
      if (event.type === 'presence.beat') beats.push(event.time - started);
    });
    handoff.start();
    handoff.start(); // a second start adds no second beat
    await clock.advance(9_999);
    expect(beats).toEqual([0, 3_000, 6_000, 9_000]);
    await handoff.destroy();
    // The last beat, at 9 s, lives its 10 s TTL: present at 18.999 s, gone at 19 s.
    await clock.advanceTo(started + 18_999);
    expect(map.peek('A')).toBe('1');
    await clock.advanceTo(started + 19_000);
    expect(map.peek('A')).toBeUndefined();
    await clock.advance(10_000);
    expect(beats).toHaveLength(4); // destroyed: no more beats
  });

  it('retries a failed beat once after 0.25 s, and warns only on the first failure after a success', async () => {
    const { clock, presence, log, handoff } = setup();
    presence.faults.inject({ kind: 'fail', operation: 'set' }); // the retry succeeds
    await clock.run(handoff.beat());
    expect(log.warnings()).toEqual([]);
    presence.faults.inject({ kind: 'fail', operation: 'set', times: 4 });
    await clock.run(handoff.beat());
    await clock.run(handoff.beat());
    expect(log.warnings()).toEqual([
      'presence beat of server A failed: Data.BackendFailed: injected failure of set A',
    ]);
    await clock.run(handoff.beat()); // succeeds
    presence.faults.inject({ kind: 'fail', operation: 'set', times: 2 });
    await clock.run(handoff.beat());
    expect(log.warnings()).toHaveLength(2);
  });

  it('reads presence as alive, stopped, or unknown when the read fails twice', async () => {
    const { clock, map, presence, handoff } = setup();
    await map.set('B', '1', 10);
    expect(await clock.run(handoff.isAlive('B'))).toBe(true);
    expect(await clock.run(handoff.isAlive('C'))).toBe(false);
    presence.faults.inject({ kind: 'fail', operation: 'get' });
    const retried = handoff.isAlive('B');
    await clock.advance(249);
    expect(await clock.run(retried)).toBe(true);
    presence.faults.inject({ kind: 'fail', operation: 'get', times: 2 });
    expect(await clock.run(handoff.isAlive('B'))).toBeUndefined();
    presence.faults.inject({ kind: 'fail', times: 2 });
    expect(await clock.run(handoff.isAlive('A'))).toBe(true); // always alive for itself, no read
  });

  it('publishes the exact wire messages to CKHandoff_<jobId>, retrying a failed publish once', async () => {
    const { clock, bus, messenger, handoff } = setup();
    const seen: unknown[] = [];
    await bus.subscribe('CKHandoff_B', (message) => seen.push(message));
    await clock.run(handoff.request('PlayerData', 'u1', 'B', 'tok'));
    await clock.run(handoff.request('PlayerData', 'u2', 'B'));
    messenger.faults.inject({ kind: 'fail', operation: 'publish' });
    await clock.run(handoff.reply('PlayerData', 'u1', 'B'));
    await clock.advance(0);
    expect(seen).toEqual([
      { T: 'Q', D: 'PlayerData', K: 'u1', R: 'A', L: 'tok' },
      { T: 'Q', D: 'PlayerData', K: 'u2', R: 'A' },
      { T: 'R', D: 'PlayerData', K: 'u1' },
    ]);
    messenger.faults.inject({ kind: 'fail', operation: 'publish', times: 2 });
    await expect(clock.run(handoff.request('PlayerData', 'u1', 'B'))).rejects.toMatchObject({
      code: ErrorCode.BackendFailed,
    });
  });

  it('routes requests and replies by driver name, and ignores malformed or unknown ones', async () => {
    const { clock, bus, handoff } = setup();
    const players = client('PlayerData');
    handoff.register(players.handoffClient);
    await clock.advance(0);
    const messages: JsonObject[] = [
      { T: 'Q', D: 'PlayerData', K: 'u1', R: 'B', L: 't1' },
      { T: 'Q', D: 'Other', K: 'u1', R: 'B' },
      { T: 'Q', D: 'PlayerData', K: 7, R: 'B' },
      { T: 'R', D: 'PlayerData', K: 'u2' },
      { nonsense: true },
    ];
    for (const message of messages) await bus.publish('CKHandoff_A', message);
    await clock.advance(0);
    expect(players.requests).toEqual([['u1', 'B', 't1']]);
    expect(players.replies).toEqual(['u2']);
  });

  it('refuses two drivers with one name, and accepts the same driver twice', () => {
    const { handoff } = setup();
    const first = client('PlayerData');
    handoff.register(first.handoffClient);
    handoff.register(first.handoffClient);
    expect(() => handoff.register(client('PlayerData').handoffClient)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it('subscribes once per server, whatever the number of drivers', async () => {
    const { clock, bus, handoff } = setup();
    handoff.register(client('PlayerData').handoffClient);
    handoff.register(client('Inventory').handoffClient);
    await clock.advance(0);
    expect(bus.subscriberCount('CKHandoff_A')).toBe(1);
    expect(handoff.subscribed).toBe(true);
  });

  it('a failed subscribe warns, falls back to polling, and is retried with the next beat', async () => {
    const { clock, messenger, log, handoff } = setup();
    messenger.faults.inject({ kind: 'fail', operation: 'subscribe' });
    handoff.register(client('PlayerData').handoffClient);
    handoff.start();
    await clock.advance(0);
    expect(handoff.subscribed).toBe(false);
    expect(log.warnings()).toEqual([
      'handoff could not subscribe to CKHandoff_A; falling back to polling: Data.BackendFailed: injected failure of subscribe CKHandoff_A',
    ]);
    await clock.advance(3_000);
    expect(handoff.subscribed).toBe(true);
  });

  it('destroy stops the beat, unsubscribes and forgets the drivers', async () => {
    const { clock, bus, map, handoff } = setup();
    const players = client('PlayerData');
    handoff.register(players.handoffClient);
    handoff.start();
    await clock.advance(0);
    expect(handoff.clientCount).toBe(1);
    await handoff.destroy();
    // Forgotten: nothing of the driver is kept (or routed to) by a destroyed handoff.
    expect(handoff.clientCount).toBe(0);
    expect(bus.subscriberCount('CKHandoff_A')).toBe(0);
    await clock.advance(10_000);
    expect(map.peek('A')).toBeUndefined();
    expect(() => handoff.register(players.handoffClient)).toThrow(
      expect.objectContaining({ code: ErrorCode.Closed }),
    );
  });

  it('shared() gives one handoff per server until it is destroyed', async () => {
    const { messenger, presence, clock } = setup();
    const first = Handoff.shared('S1', { messenger, presence, scheduler: clock });
    expect(Handoff.shared('S1', { messenger, presence, scheduler: clock })).toBe(first);
    expect(Handoff.shared('S2', { messenger, presence, scheduler: clock })).not.toBe(first);
    await first.destroy();
    expect(Handoff.shared('S1', { messenger, presence, scheduler: clock })).not.toBe(first);
  });

  it('refuses an empty jobId and bad timings', () => {
    const { messenger, presence } = setup();
    expect(() => new Handoff({ jobId: '', messenger, presence })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
    expect(
      () => new Handoff({ jobId: 'A', messenger, presence, timings: { beatSeconds: 0 } }),
    ).toThrow(expect.objectContaining({ code: ErrorCode.InvalidConfig }));
  });
});
