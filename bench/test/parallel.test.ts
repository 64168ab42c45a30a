/**
 * The bench's side-by-side trials settle before a failure propagates: a caller's `finally`
 * stops the backends, and a sibling trial still talking to them then failed outside any
 * trial (a stopped DynamoDB Local under a peer's lease heartbeat ended the whole run).
 */
import { expect, test } from 'vitest';
import { allSettled, inBatches } from '../src/parallel.js';

/** A promise and its resolve, to settle trials in a chosen order. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

test('allSettled rejects only once every promise has settled, with the first failure', async () => {
  const slow = deferred<number>();
  let settled = false;
  const all = allSettled([
    Promise.reject(new Error('first')),
    slow.promise.then((value) => {
      settled = true;
      return value;
    }),
    Promise.reject(new Error('second')),
  ]).catch((error: Error) => ({ error, siblingSettled: settled }));
  await new Promise((resolve) => setImmediate(resolve));
  slow.resolve(1);
  const outcome = await all;
  expect(outcome).toEqual({ error: new Error('first'), siblingSettled: true });
});

test('allSettled resolves with every value in order', async () => {
  await expect(allSettled([Promise.resolve(1), Promise.resolve('two')])).resolves.toEqual([
    1,
    'two',
  ]);
});

test('inBatches lets a failed batch finish before it rejects, and starts no later batch', async () => {
  const finished: number[] = [];
  const started: number[] = [];
  const run = inBatches(5, 2, async (n) => {
    started.push(n);
    if (n === 0) throw new Error(`trial ${n}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    finished.push(n);
    return n;
  });
  await expect(run).rejects.toThrow('trial 0');
  expect(finished).toEqual([1]);
  expect(started).toEqual([0, 1]);
});
