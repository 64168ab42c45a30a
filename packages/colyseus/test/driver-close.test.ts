/**
 * A join still waiting for another server's lock when the driver closes (a shutdown) fails at
 * once with the driver's reason, rather than hanging until the client gives up. Its own file:
 * it closes this process's driver.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KICK_CLOSE_CODE } from '../src/index.js';
import { world } from './support/arena.js';
import { ColyseusWorld, otherServer, SCALE } from './support/colyseus-world.js';

const prefix = `ddtest:colyseus-close:${process.pid}:`;
let colyseus: ColyseusWorld;

beforeAll(async () => {
  colyseus = await ColyseusWorld.start(prefix);
});

afterAll(async () => {
  await colyseus.stop();
});

it('driver.close() fails a join that waits for another server, at once and with no game code run', async () => {
  const id = `closing-${process.pid}`;
  const old = await otherServer(prefix, `old-${id}`, { handoff: false, jobId: `old-${id}` });
  try {
    await old.driver.load(id);
    const waiting = new Promise<void>((resolve) => {
      const off = colyseus.driver.on((event) => {
        if (event.type !== 'load.waiting' || event.key !== id || event.reason !== 'locked') return;
        off();
        resolve();
      });
    });
    const join = colyseus.client().create('arena', { user: id });
    const outcome = join.then(
      () => undefined,
      (error: { code: number; message: string }) => error,
    );
    await waiting; // the join's load waits for the other server's lock now
    const closedAt = performance.now();
    await colyseus.driver.close({ deadlineSeconds: 1 });
    const error = await outcome;
    expect(error).toMatchObject({
      code: KICK_CLOSE_CODE,
      message: expect.stringContaining('Data.Closed'),
    });
    expect(performance.now() - closedAt).toBeLessThan(15_000 * SCALE); // not the whole lock wait
    expect(world.played).not.toContain(id);
  } finally {
    await old.stop();
  }
});
