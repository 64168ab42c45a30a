/**
 * `--faults`, the demo and test tool: off unless asked for; with it, a failed or stalled store
 * call on demand, seen in the server's own event stream.
 */
import { DataDriverError, type DataDriverEvent } from '@datadriver/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';

const SCALE = 0.1;

/** The next event of `type` for `key` that `server` reports. */
function next(server: GameServerProcess, type: DataDriverEvent['type'], key?: string) {
  return new Promise<DataDriverEvent>((resolve) => {
    const off = server.onEvent((event) => {
      if (event.type !== type || (key !== undefined && 'key' in event && event.key !== key)) return;
      off();
      resolve(event);
    });
  });
}

describe('a game server with --faults', () => {
  const env = { REDIS_URL: inject('redisUrl') };
  let plain: GameServerProcess;
  let faulty: GameServerProcess;

  beforeAll(async () => {
    [plain, faulty] = await Promise.all([
      GameServerProcess.start({ jobId: `plain-${Date.now()}`, scale: SCALE, env }),
      GameServerProcess.start({ jobId: `faulty-${Date.now()}`, scale: SCALE, env, faults: true }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain.stop(), faulty.stop()]);
  });

  it('serves no fault controls without the flag', async () => {
    const response = await fetch(new URL('/faults', plain.httpUrl), { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const health = (await (await fetch(new URL('/health', plain.httpUrl))).json()) as object;
    expect(health).toMatchObject({ faults: false, handoff: true });
  });

  it('refuses a fault it cannot inject, saying why', async () => {
    const post = (body: string) =>
      fetch(new URL('/faults', faulty.httpUrl), { method: 'POST', body });
    const bad = await post('{"kind":"explode"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'kind must be "fail", "stall" or "lose-response"' });
    expect((await post('{"kind":"fail","operation":"publish"}')).status).toBe(400);
    expect((await post('{"kind":"fail","times":0}')).status).toBe(400);
    expect((await post('not json')).status).toBe(400);
  });

  it('fails the next store update: the leave save fails, with its error code', async () => {
    const user = `fail-${Date.now()}`;
    const player = await PlayerClient.connect(faulty.url, user);
    await player.next('loaded');
    await faulty.injectFault({ kind: 'fail', operation: 'update', times: 1 });
    const failed = next(faulty, 'profile.release-failed', user);
    await player.close();
    const event = await failed;
    expect(event.type === 'profile.release-failed' && event.error).toBeInstanceOf(DataDriverError);
    expect(event.type === 'profile.release-failed' && event.error.code).toBe('Data.BackendFailed');
    // Used up: rejoining adopts the retained profile with one save that lands.
    const adopted = next(faulty, 'profile.adopted', user);
    const again = await PlayerClient.connect(faulty.url, user);
    expect((await again.next('loaded')).type).toBe('loaded');
    expect(await adopted).toMatchObject({ outcome: 'kept' });
    await again.close();
  });

  it('stalls store updates until released', async () => {
    const user = `stall-${Date.now()}`;
    const player = await PlayerClient.connect(faulty.url, user);
    await player.next('loaded');
    await faulty.injectFault({ kind: 'stall', operation: 'update', times: 'forever' });
    let released = false;
    const landed = next(faulty, 'profile.released', user).then(() => {
      released = true;
    });
    await player.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(released).toBe(false);
    await faulty.releaseFaults();
    await landed;
  });

  it('streams the handoff’s presence beats beside the driver’s events', async () => {
    const beat = await next(faulty, 'presence.beat');
    expect(beat.jobId).toBe(faulty.jobId);
  });
});
