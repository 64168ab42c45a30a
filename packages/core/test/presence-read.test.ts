/**
 * `Handoff.readPresence`: whether a server beats, and how long its key has left when the
 * presence tells (`getEntry`); `isAlive` is its first half. A failed read is retried once, a
 * quarter second later, then answers unknown. Exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { Handoff, type Presence } from '../src/index.js';
import { FaultyPresence, MemoryMessenger, MemoryPresence, VirtualClock } from '../src/testing.js';
import { recordingLogger, withoutExpiry } from './helpers.js';

function reader(presenceOf: (memory: MemoryPresence, clock: VirtualClock) => Presence) {
  const clock = new VirtualClock();
  const memory = new MemoryPresence(clock);
  const presence = new FaultyPresence(presenceOf(memory, clock), { scheduler: clock });
  const handoff = new Handoff({
    jobId: 'B',
    messenger: new MemoryMessenger(),
    presence,
    scheduler: clock,
    logger: recordingLogger().logger,
  });
  return { clock, memory, presence, handoff };
}

describe('Handoff.readPresence', () => {
  it('tells the ms a beating server has left, from getEntry', async () => {
    const { clock, memory, handoff } = reader((memory) => memory);
    await memory.set('A', '1', 10);
    await clock.advance(4_000);
    expect(await handoff.readPresence('A')).toEqual({ alive: true, expiresInMs: 6_000 });
    expect(await handoff.isAlive('A')).toBe(true);
  });

  it('answers alive without a time over a presence that cannot tell', async () => {
    const { memory, handoff } = reader((memory) => withoutExpiry(memory));
    await memory.set('A', '1', 10);
    expect(await handoff.readPresence('A')).toEqual({ alive: true });
  });

  it('answers stopped for a key gone, at its expiry exactly', async () => {
    const { clock, memory, handoff } = reader((memory) => memory);
    await memory.set('A', '1', 10);
    await clock.advance(9_999);
    expect(await handoff.readPresence('A')).toEqual({ alive: true, expiresInMs: 1 });
    await clock.advance(1);
    expect(await handoff.readPresence('A')).toEqual({ alive: false });
  });

  it('answers this server alive without reading', async () => {
    const { presence, handoff } = reader((memory) => memory);
    presence.faults.inject({ kind: 'fail', operation: 'get', times: Number.POSITIVE_INFINITY });
    expect(await handoff.readPresence('B')).toEqual({ alive: true });
  });

  it('retries a failed read once, 0.25 s later, then answers unknown', async () => {
    const { clock, memory, presence, handoff } = reader((memory) => memory);
    await memory.set('A', '1', 10);
    presence.faults.inject({ kind: 'fail', operation: 'get', times: 1 });
    const started = clock.now();
    expect(await clock.run(handoff.readPresence('A'))).toEqual({
      alive: true,
      expiresInMs: 9_750,
    });
    expect(clock.now() - started).toBe(250);
    presence.faults.inject({ kind: 'fail', operation: 'get', times: 2 });
    expect(await clock.run(handoff.readPresence('A'))).toEqual({ alive: undefined });
  });
});
