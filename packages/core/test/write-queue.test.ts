import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { WriteQueue } from '../src/session/write-queue.js';

describe('WriteQueue.abandon', () => {
  it('makes no error when nobody waits for a landing (a release with no waiter builds none)', () => {
    const queue = new WriteQueue({ settled: () => undefined });
    let made = 0;
    queue.abandon(() => {
      made += 1;
      return new Error('inactive');
    });
    expect(made).toBe(0);
  });

  it('rejects every waiter with the one error it makes', async () => {
    const queue = new WriteQueue({ settled: () => undefined });
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

describe('WriteQueue.run', () => {
  it('runs writes one after another, in the order asked, each after the caller returns', async () => {
    const queue = new WriteQueue({ settled: () => undefined });
    const log: string[] = [];
    const gates: Array<() => void> = [];
    const write = (name: string) => () => {
      log.push(`start ${name}`);
      return new Promise<string>((resolve) => gates.push(() => resolve(name)));
    };
    const first = queue.run(write('a'));
    const second = queue.run(write('b'));
    log.push('asked');
    await Promise.resolve();
    expect(log).toEqual(['asked', 'start a']);
    gates.shift()?.();
    expect(await first).toBe('a');
    await Promise.resolve();
    expect(log).toEqual(['asked', 'start a', 'start b']);
    gates.shift()?.();
    expect(await second).toBe('b');
  });

  it('counts a write out before its caller resumes, and goes on past a failed or throwing write', async () => {
    let settled = 0;
    const queue = new WriteQueue({
      settled: () => {
        settled += 1;
      },
    });
    const failure = new Error('store down');
    const seen: Array<[string, number, boolean]> = [];
    const heard = (name: string) => () => {
      seen.push([name, settled, queue.busy]);
    };
    const all = [
      queue.run(() => Promise.reject(failure)).catch(heard('failed')),
      queue
        .run(() => {
          throw failure;
        })
        .catch(heard('thrown')),
      queue.run(() => Promise.resolve('landed')).then(heard('landed')),
    ];
    expect(queue.busy).toBe(true);
    await Promise.all(all);
    expect(seen).toEqual([
      ['failed', 1, true],
      ['thrown', 2, true],
      ['landed', 3, false],
    ]);
  });

  it("runs a queued write in its caller's async context, not the context of the write before it", async () => {
    const queue = new WriteQueue({ settled: () => undefined });
    const storage = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const write = () => {
      seen.push(storage.getStore());
      return Promise.resolve();
    };
    const first = storage.run('first caller', () => queue.run(write));
    const second = storage.run('second caller', () => queue.run(write));
    await Promise.all([first, second]);
    expect(seen).toEqual(['first caller', 'second caller']);
  });
});
