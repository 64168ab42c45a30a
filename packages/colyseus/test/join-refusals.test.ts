/**
 * What a refused join tells the client, in its own Colyseus process: its driver has a kick
 * message longer than a close frame carries, and its userIdOf throws for one kind of auth.
 */
import { ServerError } from 'colyseus.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  AUTH_FAILED_CODE,
  AUTH_FAILED_MESSAGE,
  KICK_CLOSE_CODE,
  userIdFromAuth,
} from '../src/index.js';
import { world } from './support/arena.js';
import { ColyseusWorld, otherServer, refusalOf } from './support/colyseus-world.js';

const prefix = `ddtest:colyseus-refusals:${process.pid}:`;
/** 161 bytes: a close frame's reason holds at most 123. */
const LOCKED = `${'Your data is still in use on another server. '.repeat(3)}Please rejoin in a moment.`;
const SECRET = 'db password=hunter2 at 10.0.0.5';
let colyseus: ColyseusWorld;

beforeAll(async () => {
  colyseus = await ColyseusWorld.start(
    prefix,
    {
      userIdOf: (client) => {
        if ((client.auth as { boom?: boolean }).boom) throw new Error(SECRET);
        return userIdFromAuth(client);
      },
    },
    { kickMessages: { locked: LOCKED } },
  );
});

afterAll(async () => {
  await colyseus.stop();
});

it('a join that fails closed with a kick message over 123 bytes gets the whole message and the code', async () => {
  expect(Buffer.byteLength(LOCKED)).toBeGreaterThan(123);
  const id = `locked-${process.pid}`;
  const old = await otherServer(prefix, `old-${id}`, { handoff: false, jobId: `old-${id}` });
  try {
    await old.driver.load(id);
    const error = await refusalOf(colyseus.client().create('arena', { user: id }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: KICK_CLOSE_CODE, message: LOCKED });
    expect(world.played).not.toContain(id);
  } finally {
    await old.stop();
  }
});

it("a userIdOf that throws: the client gets AUTH_FAILED and 'Authentication failed.', the logger the error", async () => {
  const played = world.played.length;
  const error = await refusalOf(colyseus.client().create('arena', { auth: { boom: true } }));
  expect(error).toBeInstanceOf(ServerError);
  expect(error).toMatchObject({ code: AUTH_FAILED_CODE, message: AUTH_FAILED_MESSAGE });
  expect(String((error as Error).message)).not.toContain('hunter2');
  expect(world.played.length).toBe(played);
  expect(colyseus.logger.lines).toEqual([
    expect.objectContaining({
      level: 'warn',
      message: expect.stringContaining(SECRET),
      details: expect.objectContaining({ error: expect.objectContaining({ message: SECRET }) }),
    }),
  ]);
});
