/**
 * `--high-res-clock`: the server's events carry sub-millisecond times (the bench breaks a
 * hand-over between two processes into steps well under a millisecond); without it, the
 * driver's default whole-millisecond clock.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { describe, expect, inject, it } from 'vitest';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';

/** The events of one player's load on a server started with `highResClock`. */
async function loadEvents(highResClock: boolean): Promise<DataDriverEvent[]> {
  const jobId = `clock-${highResClock}-${Date.now()}`;
  const server = await GameServerProcess.start({
    jobId,
    env: { REDIS_URL: inject('redisUrl') },
    highResClock,
  });
  try {
    const events: DataDriverEvent[] = [];
    const loaded = new Promise<void>((resolve) => {
      server.onEvent((event) => {
        events.push(event);
        if (event.type === 'load.loaded') resolve();
      });
    });
    const client = await PlayerClient.connect(server.url, `${jobId}-player`);
    await client.next('loaded');
    await loaded;
    await client.close();
    return events.filter((event) => 'key' in event);
  } finally {
    await server.stop();
  }
}

describe("a game server's clock", () => {
  it('with --high-res-clock, times events below the millisecond, on the wall clock', async () => {
    const events = await loadEvents(true);
    expect(events.map((event) => event.type)).toContain('load.loaded');
    expect(events.some((event) => !Number.isInteger(event.time))).toBe(true);
    for (const event of events) expect(Math.abs(event.time - Date.now())).toBeLessThan(60_000);
  });

  it('without it, times events in whole milliseconds', async () => {
    const events = await loadEvents(false);
    expect(events.map((event) => event.type)).toContain('load.loaded');
    expect(events.every((event) => Number.isInteger(event.time))).toBe(true);
  });
});
