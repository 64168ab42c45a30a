import { describe, expect, it } from 'vitest';
import { WriteQueue } from '../src/session/write-queue.js';

describe('WriteQueue.abandon', () => {
  it('makes no error when nobody waits for a landing (a release with no waiter builds none)', () => {
    const queue = new WriteQueue(() => undefined);
    let made = 0;
    queue.abandon(() => {
      made += 1;
      return new Error('inactive');
    });
    expect(made).toBe(0);
  });

  it('rejects every waiter with the one error it makes', async () => {
    const queue = new WriteQueue(() => undefined);
    const waits = [queue.nextLanding(), queue.nextLanding()];
    let made = 0;
    const error = new Error('inactive');
    queue.abandon(() => {
      made += 1;
      return error;
    });
    for (const wait of waits) await expect(wait).rejects.toBe(error);
    expect(made).toBe(1);
  });
});
