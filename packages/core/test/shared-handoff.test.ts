import { afterEach, describe, expect, it, vi } from 'vitest';
import { Signer } from '../src/handoff/signing.js';
import { DataDriver, ErrorCode, Handoff, scaleTimings } from '../src/index.js';
import { MemoryHost, VirtualClock } from '../src/testing.js';

import { sharedPorts } from './helpers.js';

const KEY = 'a fleet secret of 32 characters!';

const made: Handoff[] = [];
afterEach(async () => {
  for (const handoff of made.splice(0)) await handoff.destroy();
});

function shared(jobId: string, options: Parameters<typeof Handoff.shared>[1]): Handoff {
  const handoff = Handoff.shared(jobId, options);
  made.push(handoff);
  return handoff;
}

const differs = (what: string) =>
  expect.objectContaining({
    code: ErrorCode.InvalidConfig,
    message: expect.stringContaining(`already runs with other ${what}`),
  });

describe('Handoff.shared with options that differ from the running one', () => {
  it('refuses other signing, other limits and other timings, and takes the same ones', () => {
    const clock = new VirtualClock();
    const { messenger, presence } = sharedPorts(clock);
    const ports = { messenger, presence, scheduler: clock };
    const first = shared('S', {
      ...ports,
      signing: { key: KEY },
      limits: { receivePerMinute: 900 },
    });
    expect(() => shared('S', { ...ports, signing: { key: 'another key of 16+ bytes' } })).toThrow(
      differs('signing'),
    );
    expect(() => shared('S', { ...ports, signing: { key: KEY, acceptUnsigned: true } })).toThrow(
      differs('signing'),
    );
    expect(() => shared('S', { ...ports, limits: { receivePerMinute: 600 } })).toThrow(
      differs('limits'),
    );
    expect(() => shared('S', { ...ports, timings: scaleTimings(0.1) })).toThrow(differs('timings'));
    expect(
      shared('S', { ...ports, signing: { key: KEY }, limits: { receivePerMinute: 900 } }),
    ).toBe(first);
    expect(shared('S', ports)).toBe(first); // what is not given is the running one's
  });

  it('refuses signing asked for on a server whose handoff runs unsigned', () => {
    const clock = new VirtualClock();
    const { messenger, presence } = sharedPorts(clock);
    shared('S', { messenger, presence, scheduler: clock });
    expect(() => shared('S', { messenger, presence, signing: { key: KEY } })).toThrow(
      differs('signing'),
    );
  });

  it('a signed driver attached after an unsigned one on the same host is refused at attach', async () => {
    const clock = new VirtualClock();
    const ports = sharedPorts(clock);
    const host = new MemoryHost('H');
    const make = (name: string, extra: object) =>
      new DataDriver({ name, defaults: {}, ...ports, scheduler: clock, ...extra });
    const stats = make('Stats', {});
    stats.attach(host);
    const players = make('PlayerData', { handoffSigning: { key: KEY } });
    expect(() => players.attach(host)).toThrow(differs('signing'));
    await clock.run(stats.close());
  });

  it("attach makes the shared handoff with the driver's timings", async () => {
    const clock = new VirtualClock();
    const ports = sharedPorts(clock);
    const timings = scaleTimings(0.5);
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      ...ports,
      scheduler: clock,
      timings,
    });
    driver.attach(new MemoryHost('T'));
    const handoff = Handoff.shared('T', { messenger: ports.messenger, presence: ports.presence });
    expect(handoff.timings).toEqual(timings);
    await clock.run(driver.close());
  });
});

describe('a signed publish', () => {
  it('signs the message once', async () => {
    const clock = new VirtualClock();
    const { messenger, presence } = sharedPorts(clock);
    const handoff = new Handoff({
      jobId: 'A',
      messenger,
      presence,
      scheduler: clock,
      signing: { key: KEY },
    });
    const sign = vi.spyOn(Signer.prototype, 'sign');
    await clock.run(handoff.request('PlayerData', 'p1', 'B', 't1'));
    expect(sign).toHaveBeenCalledTimes(1);
    sign.mockRestore();
    await handoff.destroy();
  });
});
