/**
 * The servers of a Redis run as real processes: one that dies unasked fails the run, with an
 * entry on its lane and its last output in the error; one the story kills does not; and
 * stopping the run leaves no process behind.
 */
import { describe, expect, inject, it } from 'vitest';
import { RedisWorld } from '../src/redis/redis-world.js';
import type { WorldEventType } from '../src/world-event.js';
import { gameServerChildren } from './support/children.js';

function world(): RedisWorld {
  return new RedisWorld({ redisUrl: inject('redisUrl'), scale: 1 });
}

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol('pending');
  const timer = new Promise((resolve) => setTimeout(() => resolve(pending), ms));
  return (await Promise.race([promise.catch(() => undefined), timer])) === pending;
}

describe('the servers of a Redis run', () => {
  it('fail the run when one exits unasked, saying which and how, with its output', async () => {
    const run = world();
    try {
      const a = await run.server('A');
      const seen: WorldEventType[] = [];
      run.on((event) => seen.push(event.type));
      await a.process.stop('SIGKILL'); // not through the story: a failure
      await expect(run.failed).rejects.toThrow(
        new RegExp(
          `^game server A \\(${run.names.jobId('A')}\\) exited unexpectedly \\(SIGKILL\\); its last output:\\ngame server .* listening`,
        ),
      );
      expect(seen).toContain('server.exited');
    } finally {
      await run.stop();
    }
  }, 60_000);

  it('do not fail the run when the story kills one, and are all stopped with it', async () => {
    const run = world();
    try {
      const [a] = await Promise.all([run.server('A'), run.server('B')]);
      const seen: WorldEventType[] = [];
      run.on((event) => seen.push(event.type));
      await a.crash();
      expect(seen.filter((type) => type.startsWith('server.'))).toEqual(['server.crashed']);
      expect(await pendingAfter(run.failed, 300)).toBe(true);
      expect(await gameServerChildren()).toHaveLength(1);
    } finally {
      await run.stop();
    }
    expect(await gameServerChildren()).toEqual([]);
  }, 60_000);

  it('time out a wait for an event that never comes, naming it', async () => {
    const run = world();
    try {
      await run.server('A');
      await expect(run.next('A', ['load.loaded'], 'p1', 200)).rejects.toThrow(
        'server A reported no load.loaded within 200 ms',
      );
    } finally {
      await run.stop();
    }
  }, 60_000);
});
