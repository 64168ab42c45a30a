import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import { MemoryHost } from '../src/testing.js';
import { testBed } from './helpers.js';

describe('a player added after close()', () => {
  it('gets load.failed with Data.Closed at once, and nothing is loaded or written', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const host = new MemoryHost('A');
    driver.attach(host);
    await bed.clock.run(driver.close());
    expect(driver.closed).toBe(true);
    const failed: unknown[] = [];
    driver.on((event) => {
      if (event.type === 'load.failed') failed.push(event);
    });
    host.join('late');
    await bed.clock.advance(0);
    expect(failed).toEqual([
      expect.objectContaining({
        key: 'late',
        waitedMs: 0,
        error: expect.objectContaining({ code: ErrorCode.Closed }),
      }),
    ]);
    expect(bed.store.keys()).toEqual([]);
  });

  it('driver.closed is false until close() is called', () => {
    const bed = testBed();
    expect(bed.driver('A').closed).toBe(false);
  });
});
