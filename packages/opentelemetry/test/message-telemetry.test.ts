/**
 * Profile messages as metrics: sends by outcome, applies counted once their write is known
 * committed (a lost response is not counted twice), duplicates, failing handlers and transfer
 * deliveries, each server with its own SDK and in-memory exporter. Core's memory store on a
 * virtual clock, so every count is exact. No attribute holds a message's id, body or key.
 */
import { DataDriver, type DataDriverOptions, type ProfileMessage } from '@datadriver/core';
import { FaultyStore, MemoryStore, VirtualClock } from '@datadriver/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ATTRIBUTES, instrumentDriver, METRICS } from '../src/index.js';
import { type Telemetry, telemetry } from './support/telemetry.js';

const SECRET = 'marker-5eed-in-message-body';
const opened: Telemetry[] = [];

afterEach(async () => {
  for (const sdk of opened.splice(0)) await sdk.shutdown();
});

type Data = { coins: number };

function servers() {
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const server = (jobId: string, options: Partial<DataDriverOptions<Data>> = {}) => {
    const connection = new FaultyStore(store, { scheduler: clock });
    const driver = new DataDriver<Data>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store: connection,
      scheduler: clock,
      logger: quiet,
      jobId,
      onMessage: (profile, message: ProfileMessage) => {
        const body = message.body as { coins?: number; throws?: boolean };
        if (body.throws) throw new Error('refused');
        profile.data.coins += body.coins ?? 0;
      },
      ...options,
    });
    const sdk = telemetry();
    opened.push(sdk);
    instrumentDriver(driver, sdk);
    return { driver, store: connection, sdk };
  };
  return { clock, server };
}

const driverName = { [ATTRIBUTES.driver]: 'PlayerData' };

describe('message metrics', () => {
  it('counts sends by outcome, applies once through a lost response, and every failed try', async () => {
    const { clock, server } = servers();
    const w = server('W');
    const send = (id: string, body: object) => clock.run(w.driver.send('p1', body, { id }));
    await send('g1', { coins: 1, note: SECRET });
    await send('g1', { coins: 1, note: SECRET });
    await send('bad', { throws: true });
    const a = server('A');
    const profile = await clock.run(a.driver.load('p1'));
    await send('g2', { coins: 2 });
    await send('g3', { coins: 3 });
    a.store.faults.inject({ kind: 'lose-response', operation: 'update', key: 'PlayerData/p1' });
    await clock.advance(30_000); // applies g2 and g3; the write's response is lost
    await clock.advance(60_000); // the next write carries them, known committed
    expect(profile.data.coins).toBe(6);

    expect(await w.sdk.count(METRICS.messagesSent)).toBe(5);
    expect(
      await w.sdk.count(METRICS.messagesSent, { [ATTRIBUTES.messageOutcome]: 'duplicate' }),
    ).toBe(1);
    const [queued] = (await w.sdk.points(METRICS.messagesSent)).filter(
      (point) => point.attributes[ATTRIBUTES.messageOutcome] === 'queued',
    );
    expect(queued).toMatchObject({
      value: 4,
      attributes: { ...driverName, [ATTRIBUTES.messageOutcome]: 'queued' },
    });
    expect(await a.sdk.count(METRICS.messagesApplied, driverName)).toBe(3);
    expect(await a.sdk.count(METRICS.messageDuplicates)).toBe(0);
    // The load's pass and three autosaves each tried `bad`.
    expect(
      await a.sdk.count(METRICS.messageFailures, { [ATTRIBUTES.errorType]: 'Data.MessageFailed' }),
    ).toBe(4);
    expect(await w.sdk.count(METRICS.messagesApplied)).toBe(0);
    const values = [...(await w.sdk.everyValue()), ...(await a.sdk.everyValue())].join('\n');
    for (const leak of [SECRET, 'g1', 'bad', 'p1']) expect(values).not.toContain(leak);
  });

  it('counts a duplicate found by the next holder, an inbox that could not be trimmed, and transfers', async () => {
    const { clock, server } = servers();
    const w = server('W');
    await clock.run(w.driver.send('p1', { coins: 9 }, { id: 'g1' }));
    const a = server('A');
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData#inbox/p1' });
    const alice = await clock.run(a.driver.load('p1'));
    alice.send('bob', { coins: 4 }, { id: 't1' });
    a.store.faults.inject({
      kind: 'lose-response',
      operation: 'update',
      key: 'PlayerData#inbox/bob',
    });
    await clock.run(alice.save()); // delivers t1: its response is lost
    await clock.advance(0);
    await clock.run(alice.save()); // delivers t1 again: a duplicate
    await clock.advance(0);
    a.store.faults.inject({ kind: 'fail', times: Number.POSITIVE_INFINITY }); // A is cut off
    const b = server('B', { lockWaitSeconds: 600 });
    await clock.run(b.driver.load('p1'));

    expect(await a.sdk.count(METRICS.messagesApplied)).toBe(1);
    expect(
      await a.sdk.count(METRICS.inboxFailures, {
        [ATTRIBUTES.inboxStep]: 'trim',
        [ATTRIBUTES.errorType]: 'Data.BackendFailed',
      }),
    ).toBe(1);
    expect(
      await a.sdk.count(METRICS.transferFailures, { [ATTRIBUTES.errorType]: 'Data.BackendFailed' }),
    ).toBe(1);
    expect(
      await a.sdk.count(METRICS.transfersDelivered, { [ATTRIBUTES.messageOutcome]: 'duplicate' }),
    ).toBe(1);
    expect(await a.sdk.count(METRICS.transfersDelivered)).toBe(1);
    expect(await b.sdk.count(METRICS.messageDuplicates, driverName)).toBe(1);
    expect(await b.sdk.count(METRICS.messagesApplied)).toBe(0);
  });
});
