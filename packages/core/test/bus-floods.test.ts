/**
 * The bus as an attacker with access to it uses it: spoofed replies, request floods, oversized
 * messages. Two servers with handoff on, over the in-memory backend on a virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, type Store } from '../src/index.js';
import { MAX_MESSAGE_BYTES } from '../src/ports.js';
import { MessageBudget } from '../src/rules/index.js';
import { DEFAULT_MESSAGE_LIMITS, topicOf } from '../src/rules.js';
import { MAX_REQUESTERS_PER_KEY } from '../src/session/requesters.js';
import { MemoryMessenger } from '../src/testing.js';
import { faultyFleet } from './helpers.js';

function fleet() {
  const { clock, store, bus, log, server: connect } = faultyFleet();
  const server = (jobId: string) => {
    let updates = 0;
    const { driver, handoff, connection, messenger, presence } = connect(
      jobId,
      ({ connection, messenger, presence }) => {
        const counted: Store = {
          specificationVersion: 'v2',
          update: (key, transform, options) => {
            updates += 1;
            return connection.update(key, transform, options);
          },
          get: (key) => connection.get(key),
        };
        return { store: counted, messenger, presence, jobId, lockWaitSeconds: 20 };
      },
    );
    const events: string[] = [];
    driver.on((event) => void events.push(event.type));
    return {
      driver,
      handoff,
      events,
      store: connection,
      updates: () => updates,
      crash() {
        const forever = { kind: 'stall', times: Number.POSITIVE_INFINITY } as const;
        connection.faults.inject(forever);
        presence.faults.inject(forever);
        messenger.faults.inject(forever);
      },
    };
  };
  /** Publishes `message` to `jobId`'s topic every `everyMs`, as anyone on the bus can. */
  const flood = (jobId: string, everyMs: number, message: (n: number) => object) => {
    let sent = 0;
    return clock.repeat(everyMs, () => {
      sent += 1;
      void bus.publish(topicOf(jobId), message(sent) as never);
    });
  };
  return { clock, store, bus, log, server, flood };
}

describe('spoofed replies', () => {
  it("a reply every 20 ms to the joining server does not stop a crashed holder's lock being taken in 10 to 15 s", async () => {
    const { clock, server, flood } = fleet();
    const a = server('A');
    const b = server('B');
    await clock.run(a.driver.load('p1'));
    await clock.advance(1_000);
    const lastBeat = clock.now() - 1_000; // A beat at start; the next is due at 3 s
    a.crash();
    const spoofing = flood('B', 20, () => ({ T: 'R', D: 'PlayerData', K: 'p1' }));
    const profile = await clock.run(b.driver.load('p1'));
    spoofing.cancel();
    const takenAfter = clock.now() - lastBeat;
    expect(profile.active).toBe(true);
    expect(takenAfter).toBeGreaterThanOrEqual(10_000);
    expect(takenAfter).toBeLessThanOrEqual(15_000);
    expect(b.events).toContain('lock.taken');
  });
});

describe('message budgets', () => {
  it('a flood of requests from made-up servers is cut to the receive budget: bounded store calls and replies, one warning, the save lands', async () => {
    const { clock, store, server, flood, log } = fleet();
    const a = server('A');
    const held = await clock.run(a.driver.load('p1'));
    const before = a.updates();
    // 1,000 requests a second for a minute, each from another made-up server, naming a token
    // A does not hold (so each would be answered with a store check and a reply).
    const spoofing = flood('A', 1, (n) => ({
      T: 'Q',
      D: 'PlayerData',
      K: 'p1',
      R: `X${n}`,
      L: `t${n}`,
    }));
    held.data.coins = 7;
    const saved = held.save();
    await clock.advance(60_000);
    spoofing.cancel();
    await clock.run(saved);
    const accepted = DEFAULT_MESSAGE_LIMITS.receivePerMinute * (1 + 10 / 60); // a minute + the burst
    // Each accepted request costs at most one store update (the orphan check) and one reply.
    expect(a.updates() - before).toBeLessThanOrEqual(Math.ceil(accepted) + 3);
    const received = a.events.filter((type) => type === 'handoff.request.received').length;
    const replies = a.events.filter((type) => type === 'handoff.reply.sent').length;
    expect(received).toBeLessThanOrEqual(Math.ceil(accepted));
    expect(replies).toBeLessThanOrEqual(received);
    expect(replies).toBeGreaterThan(0); // the accepted ones were answered
    expect(
      log.warnings().filter((line) => line.startsWith('handoff dropped a message it was sent')),
    ).toHaveLength(1);
    expect(held.active).toBe(true);
    expect(store.peek('PlayerData/p1')).toMatchObject({ data: { coins: 7 } });
  }, 30_000); // 60,000 messages through the virtual clock: CPU-bound, slow on a loaded machine

  it('a flood of token-less requests records at most 16 requesters for a key', async () => {
    const { clock, server, flood } = fleet();
    const a = server('A');
    const events: Array<{ type: string; action?: string }> = [];
    a.driver.on((event) => void events.push(event as { type: string; action?: string }));
    // A load in flight (its write stalls) records each requester, to answer when it settles.
    const stall = a.store.faults.inject({ kind: 'stall', operation: 'update' });
    const loading = a.driver.load('p1');
    const spoofing = flood('A', 5, (n) => ({ T: 'Q', D: 'PlayerData', K: 'p1', R: `X${n}` }));
    await clock.advance(500);
    spoofing.cancel();
    const actions = events
      .filter((e) => e.type === 'handoff.request.received')
      .map((e) => e.action);
    expect(actions.filter((action) => action === 'await-load')).toHaveLength(
      MAX_REQUESTERS_PER_KEY,
    );
    expect(actions.filter((action) => action === 'ignored')).toHaveLength(
      100 - MAX_REQUESTERS_PER_KEY,
    );
    stall.release();
    await clock.run(loading.catch(() => undefined));
    await clock.advance(1_000);
    const replies = events.filter((e) => e.type === 'handoff.reply.sent');
    expect(replies.length).toBeLessThanOrEqual(MAX_REQUESTERS_PER_KEY);
  });

  it('publishes at most the publish budget, and warns once', async () => {
    const { clock, server, log } = fleet();
    const a = server('A');
    const results = await clock.run(
      Promise.allSettled(
        Array.from({ length: 200 }, (_, n) => a.handoff.request('PlayerData', `k${n}`, 'B', 't')),
      ),
    );
    const sent = results.filter((result) => result.status === 'fulfilled').length;
    expect(sent).toBe(DEFAULT_MESSAGE_LIMITS.publishPerMinute / 6); // ten seconds' worth
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: ErrorCode.Throttled });
    expect(
      log
        .warnings()
        .filter((line) => line.startsWith('handoff dropped a message it would have published')),
    ).toHaveLength(1);
  });

  it('the budget refills at its rate per minute, and holds ten seconds of it', () => {
    const budget = new MessageBudget();
    let taken = 0;
    while (budget.take(0, 600)) taken += 1;
    expect(taken).toBe(100);
    expect(budget.take(99, 600)).toBe(false); // 0.99 of a message refilled
    expect(budget.take(100, 600)).toBe(true);
    expect(budget.take(100, 600)).toBe(false);
  });
});

describe('oversized messages', () => {
  it('a request over 1 kB is refused with Data.TooLarge and not published', async () => {
    const { clock, server, bus } = fleet();
    const a = server('A');
    const heard: unknown[] = [];
    await bus.subscribe(topicOf('B'), (message) => void heard.push(message));
    const key = 'k'.repeat(MAX_MESSAGE_BYTES);
    await expect(clock.run(a.handoff.request('PlayerData', key, 'B', 't'))).rejects.toMatchObject({
      code: ErrorCode.TooLarge,
    });
    await clock.advance(0);
    expect(heard).toEqual([]);
  });

  it('the in-memory messenger drops a payload over 1 kB unparsed', async () => {
    const bus = new MemoryMessenger();
    const heard: unknown[] = [];
    await bus.subscribe('t', (message) => void heard.push(message));
    const fits = { pad: 'x'.repeat(MAX_MESSAGE_BYTES - 10) }; // {"pad":"…"} is 10 bytes more
    await bus.publish('t', fits);
    await bus.publish('t', { pad: 'x'.repeat(MAX_MESSAGE_BYTES) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([fits]);
  });
});
