import { describe, expect, it } from 'vitest';
import { DataDriver } from '../src/index.js';
import { MemoryHost, VirtualClock } from '../src/testing.js';
import { recordingLogger, sharedPorts } from './helpers.js';

/** A driver over ports that count as shared (as Redis's would), never attached unless asked. */
function driverWith(options: object = {}) {
  const clock = new VirtualClock();
  const log = recordingLogger();
  const driver = new DataDriver({
    name: 'PlayerData',
    defaults: {},
    ...sharedPorts(clock),
    scheduler: clock,
    logger: log.logger,
    ...options,
  });
  const unattached = () => log.warnings().filter((line) => line.includes('never attached'));
  return { clock, driver, unattached };
}

describe('a driver that could hand over but was never attached', () => {
  it('warns once, at its first load, that handoff is off and how to turn it on or silence it', async () => {
    const { clock, driver, unattached } = driverWith();
    expect(unattached()).toEqual([]);
    await clock.run(driver.load('p1'));
    await clock.run(driver.load('p2'));
    expect(unattached()).toEqual([
      expect.stringMatching(/PlayerData loads with handoff off.*attach\(host\).*handoff: false/),
    ]);
    await clock.run(driver.close());
  });

  it.each([
    ['handoff: false', { handoff: false }],
    ['a jobId of its own (a simulated server)', { jobId: 'A' }],
  ])('says nothing with %s', async (_name, options) => {
    const { clock, driver, unattached } = driverWith(options);
    await clock.run(driver.load('p1'));
    expect(unattached()).toEqual([]);
    await clock.run(driver.close());
  });

  it('says nothing once attached', async () => {
    const { clock, driver, unattached } = driverWith();
    driver.attach(new MemoryHost('H'));
    await clock.run(driver.load('p1'));
    expect(unattached()).toEqual([]);
    await clock.run(driver.close());
  });
});
