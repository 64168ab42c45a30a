/**
 * The options the bench runs its game servers with. `--high-res-clock`: the server's events
 * carry sub-millisecond times (the bench breaks a hand-over between two processes into steps
 * well under a millisecond); without it, the driver's default whole-millisecond clock.
 * `--batch-events`: a load's events reach a watcher once the server was quiet.
 * `--message-limits-times k`: the handoff's message budgets times k. `--no-on-message`: no
 * `onMessage`, so a load reads no inbox.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { DEFAULT_MESSAGE_LIMITS } from '@datadriver/core/rules';

import { describe, expect, inject, it } from 'vitest';
import { parseArgs } from '../src/args.js';
import { QUIET_MS } from '../src/event-stream.js';
import { GameServerProcess } from '../src/game-server-process.js';
import { messageLimitsTimes } from '../src/message-limits.js';
import { PlayerClient } from '../src/player-client.js';

interface Arrived {
  readonly event: DataDriverEvent;
  /** When it reached this process, on the wall clock in sub-milliseconds. */
  readonly at: number;
}

/** The events of one player's load, with when each arrived here. */
async function loadEvents(options: {
  highResClock?: boolean;
  batchEvents?: boolean;
}): Promise<Arrived[]> {
  const jobId = `options-${options.highResClock}-${options.batchEvents}-${Date.now()}`;
  const server = await GameServerProcess.start({
    jobId,
    env: { REDIS_URL: inject('redisUrl') },
    ...options,
  });
  try {
    const events: Arrived[] = [];
    const loaded = new Promise<void>((resolve) => {
      server.onEvent((event) => {
        events.push({ event, at: performance.timeOrigin + performance.now() });
        if (event.type === 'load.loaded') resolve();
      });
    });
    const client = await PlayerClient.connect(server.url, `${jobId}-player`);
    await client.next('loaded');
    await loaded;
    await client.close();
    return events.filter(({ event }) => 'key' in event);
  } finally {
    await server.stop();
  }
}

describe("a game server's bench options", () => {
  it('with --high-res-clock, times events below the millisecond, on the wall clock', async () => {
    const events = (await loadEvents({ highResClock: true })).map(({ event }) => event);
    expect(events.map((event) => event.type)).toContain('load.loaded');
    expect(events.some((event) => !Number.isInteger(event.time))).toBe(true);
    for (const event of events) expect(Math.abs(event.time - Date.now())).toBeLessThan(60_000);
  });

  it('without it, times events in whole milliseconds', async () => {
    const events = (await loadEvents({})).map(({ event }) => event);
    expect(events.map((event) => event.type)).toContain('load.loaded');
    expect(events.every((event) => Number.isInteger(event.time))).toBe(true);
  });

  it(`with --batch-events, ships a load's last event ${QUIET_MS} ms after it happened`, async () => {
    const events = await loadEvents({ highResClock: true, batchEvents: true });
    const types = events.map(({ event }) => event.type);
    expect(types[0]).toBe('load.started');
    expect(types).toContain('load.loaded');
    // Not as it happened: once the server had been quiet (a slow load may ship its first events
    // earlier, at the longest delay).
    const last = events.find(({ event }) => event.type === 'load.loaded')!;
    expect(last.at - last.event.time).toBeGreaterThanOrEqual(QUIET_MS);
  });

  it('with --message-limits-times k, multiplies every message budget by k; refuses a k that is not positive', () => {
    const args = parseArgs(['--message-limits-times', '100'], {});
    expect(args.messageLimitsTimes).toBe(100);
    expect(messageLimitsTimes(100)).toEqual({
      publishPerMinute: DEFAULT_MESSAGE_LIMITS.publishPerMinute * 100,
      publishPerPlayerPerMinute: DEFAULT_MESSAGE_LIMITS.publishPerPlayerPerMinute * 100,
      receivePerMinute: DEFAULT_MESSAGE_LIMITS.receivePerMinute * 100,
    });
    expect(parseArgs([], {}).messageLimitsTimes).toBeUndefined();
    for (const bad of ['0', '-1', 'many']) {
      expect(() => parseArgs(['--message-limits-times', bad], {})).toThrow(
        `--message-limits-times must be a positive number, got ${bad}`,
      );
    }
  });

  it('with --no-on-message, runs without onMessage: a grant to a player it holds stays queued', async () => {
    expect(parseArgs([], {}).onMessage).toBe(true);
    expect(parseArgs(['--no-on-message'], {}).onMessage).toBe(false);
    const jobId = `options-no-on-message-${Date.now()}`;
    const server = await GameServerProcess.start({
      jobId,
      env: { REDIS_URL: inject('redisUrl') },
      onMessage: false,
    });
    try {
      const types: string[] = [];
      server.onEvent((event) => types.push(event.type));
      const client = await PlayerClient.connect(server.url, `${jobId}-player`);
      await client.next('loaded');
      await server.grant(`${jobId}-player`, 5, `${jobId}-grant`);
      // The save of a pass would follow within a round trip or two; none comes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(types).toContain('message.sent');
      expect(types).not.toContain('message.applied');
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
