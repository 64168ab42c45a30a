/**
 * `driver.kick(key, { message })`: an operator ends a live session on purpose, through its
 * holder, with the operator's words as the player's kick message; it never takes a live lock by
 * age. Every time here is exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import type { ReleaseReason } from '../src/index.js';
import { DataDriverError, ErrorCode } from '../src/index.js';
import { MemoryHost } from '../src/testing.js';
import { faultyFleet, neverHears, stored } from './helpers.js';

const MESSAGE = 'Maintenance: back in 5 minutes.';

function fleet() {
  const bed = faultyFleet();
  const ended: Array<[string, ReleaseReason]> = [];
  const game = (jobId: string) => {
    const server = bed.server(jobId, () => ({
      beforeRelease: (_profile, reason) => void ended.push([jobId, reason]),
    }));
    const host = new MemoryHost(jobId);
    server.driver.attach(host);
    return { ...server, host };
  };
  return { ...bed, ended, game };
}

describe('driver.kick', () => {
  it('through the holder: its player is kicked with the message, the leave save lands, and the lock ends released', async () => {
    const { clock, store, ended, game, server } = fleet();
    const a = game('A');
    a.host.join('p1');
    await clock.advance(0);
    a.driver.profile('p1')!.data.coins = 8;
    const operator = server('ops');
    const started = clock.now();
    const result = await clock.run(operator.driver.kick('p1', { message: MESSAGE }));
    expect(result).toEqual({ ended: true });
    expect(clock.now() - started).toBe(0); // A answers at once: no park
    expect(a.host.kicks).toEqual([{ player: 'p1', message: MESSAGE }]);
    expect(ended).toEqual([['A', 'operator']]);
    expect(stored(store, 'p1')?.data).toEqual({ coins: 8 });
    expect(stored(store, 'p1')?.meta.lock).toBeUndefined();
    expect(operator.driver.profile('p1')).toBeUndefined();
    const kicked = a.events.filter((event) => event.type === 'profile.kicked');
    expect(kicked).toMatchObject([{ cause: 'operator', message: MESSAGE }]);
  });

  it('a holder that never answers keeps its live lock: Data.Locked at lockWaitSeconds (15 s), nothing taken', async () => {
    const { clock, store, game, server } = fleet();
    const a = game('A');
    a.host.join('p1');
    await clock.advance(0);
    neverHears(a);
    const before = stored(store, 'p1')?.meta.lock;
    const operator = server('ops');
    const started = clock.now();
    const error = await clock
      .run(operator.driver.kick('p1', { message: MESSAGE }))
      .catch((failure: unknown) => failure);
    expect((error as DataDriverError).code).toBe(ErrorCode.Locked);
    expect(clock.now() - started).toBe(15_000);
    expect(stored(store, 'p1')?.meta.lock?.token).toBe(before?.token);
    expect(a.host.kicks).toEqual([]);
  });

  it('no session to end (released, or never saved): ended false, nothing written', async () => {
    const { clock, store, server } = fleet();
    const a = server('A');
    const profile = await clock.run(a.driver.load('p1'));
    await clock.run(profile.release());
    const before = store.peekJson('PlayerData/p1');
    const operator = server('ops');
    expect(await clock.run(operator.driver.kick('p1', { message: MESSAGE }))).toEqual({
      ended: false,
    });
    expect(await clock.run(operator.driver.kick('nobody', { message: MESSAGE }))).toEqual({
      ended: false,
    });
    expect(store.peekJson('PlayerData/p1')).toBe(before);
    expect(store.peekJson('PlayerData/nobody')).toBeUndefined();
  });

  it('a message no request could carry: Data.InvalidArgument, nothing read or sent', async () => {
    const { clock, bus, server } = fleet();
    const operator = server('ops');
    const published: unknown[] = [];
    const publish = bus.publish.bind(bus);
    bus.publish = async (topic, message) => {
      published.push(message);
      return publish(topic, message);
    };
    for (const message of ['', 'x'.repeat(201), 'bad \ud800', 7]) {
      const error = await clock
        .run(operator.driver.kick('p1', { message: message as string }))
        .catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(DataDriverError);
      expect((error as DataDriverError).code).toBe(ErrorCode.InvalidArgument);
    }
    expect(published).toEqual([]);
  });
});
