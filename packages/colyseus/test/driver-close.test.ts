/**
 * A join still waiting for another server's lock when the driver closes (a shutdown) fails
 * with the driver's reason as the close begins, rather than at the end of the lock wait. Its own file:
 * it closes this process's driver.
 */
import { describeProbe, probe } from '@datadriver/testkit/cluster';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KICK_CLOSE_CODE } from '../src/index.js';
import { world } from './support/arena.js';
import { ColyseusWorld, otherServer, redisPorts } from './support/colyseus-world.js';

const prefix = `ddtest:colyseus-close:${process.pid}:`;
let colyseus: ColyseusWorld;

beforeAll(async () => {
  colyseus = await ColyseusWorld.start(prefix);
});

afterAll(async () => {
  await colyseus.stop();
});

it("driver.close() fails a join that waits for another server with the driver's reason, within a probe's slack of the close, no game code run", async () => {
  const id = `closing-${process.pid}`;
  const old = await otherServer(prefix, `old-${id}`, { handoff: false, jobId: `old-${id}` });
  // The probe's own connections: the driver's close must not take them down mid-sample.
  const probePorts = await redisPorts(prefix);
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
    const running = await probe(probePorts);
    const closedAt = performance.now();
    const closing = colyseus.driver.close({ deadlineSeconds: 1 });
    const error = await outcome;
    const refusedMs = performance.now() - closedAt;
    const figures = await running.stop();
    await closing;
    expect(error).toMatchObject({
      code: KICK_CLOSE_CODE,
      message: expect.stringContaining('Data.Closed'),
    });
    // No wait of its own: one event in this process and one message to the client, where the
    // lock wait would have gone on for up to 1.5 s.
    expect(refusedMs, describeProbe('the refusal', figures)).toBeLessThan(figures.slackMs);
    expect(world.played).not.toContain(id);
  } finally {
    await old.stop();
    await probePorts.close();
  }
});
