/**
 * The slack of a real-time bound is what the wait's own path spent unscaled: a backend that
 * turns slow after the servers started moves the bound with it, and a wait on one scaled timer
 * too many still fails, however slow the backend. The in-memory ports on real time, under a
 * store whose every call takes `delayMs` of real time (a slow backend, below the ledger).
 */
import type { Messenger, Store } from '@datadriver/core';
import { SystemScheduler } from '@datadriver/core/ports';
import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { describe, expect, it } from 'vitest';
import {
  type Cluster,
  expectStoppedReads,
  expectWait,
  handoffScenarios,
  mark,
  settled,
  waitOf,
  withCluster,
} from '../src/cluster/index.js';
import { type ClusterBackend, realTime } from '../src/index.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The in-memory bus, losing the first request to server A when `loseFirstRequest` is set. */
function lossyBus(backend: { loseFirstRequest: boolean }): Messenger {
  const bus = new MemoryMessenger();
  return {
    specificationVersion: 'v1',
    publish: async (topic, message) => {
      if (backend.loseFirstRequest && topic.endsWith('-A') && message.T === 'Q') {
        backend.loseFirstRequest = false;
        return;
      }
      await bus.publish(topic, message);
    },
    subscribe: (topic, handler) => bus.subscribe(topic, handler),
  };
}

function slowBackend(
  crashDelayMs = 0,
): ClusterBackend & { delayMs: number; loseFirstRequest: boolean } {
  const scheduler = new SystemScheduler();
  const memory = new MemoryStore({ clock: scheduler });
  const presence = new MemoryPresence(scheduler);
  const backend = {
    loseFirstRequest: false,
    name: 'memory on real time, slow store',
    time: realTime(),
    scale: 0.1,
    delayMs: crashDelayMs,
    connect: async () => ({ store, messenger: bus, presence }),
    read: (key: string) => memory.get(key),
    close: async () => undefined,
  };
  const store: Store = {
    specificationVersion: 'v2',
    update: async (key, transform, options) => {
      await pause(backend.delayMs);
      return memory.update(key, transform, options);
    },
    get: async (key) => {
      await pause(backend.delayMs);
      return memory.get(key);
    },
  };
  const bus = lossyBus(backend);
  return backend;
}

/** A on p1, B up; then every store call takes `delayMs`, and B joins: the hand-over. */
async function handOver(backend: ReturnType<typeof slowBackend>, delayMs: number, drop = false) {
  let result: { waited: number; slack: number; passes: boolean; line: string } | undefined;
  await withCluster(backend, async (cluster) => {
    const a = await cluster.server('A');
    const b = await cluster.server('B');
    const onA = mark(cluster);
    a.join('p1');
    await settled(cluster, 'A', 'p1', onA);
    backend.delayMs = delayMs;
    if (drop) a.messenger.faults.inject({ kind: 'drop', operation: 'deliver' });
    const from = mark(cluster);
    b.join('p1');
    const loaded = await settled(cluster, 'B', 'p1', from);
    expect(loaded.type).toBe('load.loaded');
    const wait = { ...waitOf(loaded), server: 'B' };
    let passes = true;
    try {
      expectWait(cluster, wait, { exactMs: 340, atMostMs: 1500 });
    } catch {
      passes = false;
    }
    const { slackMs } = cluster.slackFor(wait);
    const line = `${delayMs} ms calls: waited ${wait.to - wait.from} ms, slack ${slackMs} ms`;
    result = { waited: wait.to - wait.from, slack: slackMs, passes, line };
  });
  return result!;
}

/** A crashes right after a beat; B joins with each of its timers' delays put through `delay`. */
async function crashTakeover(
  backend: ReturnType<typeof slowBackend>,
  delay: (cluster: Cluster) => (delayMs: number) => number,
) {
  let checked: (() => void) | undefined;
  await withCluster(backend, async (cluster) => {
    const a = await cluster.server('A');
    const b = await cluster.server('B', { lockWaitSeconds: 40, timerDelay: delay(cluster) });
    const onA = mark(cluster);
    a.join('p1');
    await settled(cluster, 'A', 'p1', onA);
    await cluster.time.until(a.handoff!.beat());
    a.crash();
    const crashedAt = cluster.time.now();
    const from = mark(cluster);
    b.join('p1');
    const loaded = await settled(cluster, 'B', 'p1', from);
    expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
    checked = () => expectStoppedReads(cluster, 'B', crashedAt + cluster.ms(10));
  });
  return checked!;
}

/**
 * Stretches the first timer of B's schedule armed after its first empty read by one beat: a
 * missed beat. The bound of a store attempt (one presence TTL past the join's deadline, so
 * never shorter than a TTL) is armed first, but is no step of the schedule: it fires only
 * when the store hangs.
 */
function missedBeat(cluster: Cluster) {
  let missed = false;
  return (delayMs: number) => {
    const empty = cluster.events.some((e) => e.type === 'presence.read' && e.answer === 'stopped');
    if (!empty || missed || delayMs >= cluster.ms(10)) return delayMs;
    missed = true;
    return delayMs + cluster.ms(3);
  };
}

describe('real-time bounds', () => {
  for (const delayMs of [20, 100, 200]) {
    it(`a backend that turns slow after the servers started (${delayMs} ms a store call): the hand-over's own path is its slack, and it passes`, async () => {
      const { waited, slack, passes, line } = await handOver(slowBackend(), delayMs);
      console.info(line);
      // B's first load and its last (and A's release save between, if the reply woke B):
      // calls one after another on no scaled timer, less the model's 100 ms (scaled) each.
      expect(slack).toBeGreaterThanOrEqual(2 * (delayMs - 10) - 1);
      if (delayMs >= 100) expect(waited).toBeGreaterThan(150); // past the scaled bound alone
      expect(passes).toBe(true);
    });

    it(`a hand-over that waited out the 4 s request repeat fails its bound (${delayMs} ms a store call)`, async () => {
      const { waited, slack, passes, line } = await handOver(slowBackend(), delayMs, true);
      console.info(line);
      expect(waited).toBeGreaterThanOrEqual(400); // the first request was dropped
      // The attempts B made while it sat on the repeat are off its path: no slack from them.
      expect(waited - slack).toBeGreaterThan(150);
      expect(passes).toBe(false);
    });
  }

  it('a crash takeover on a slow store reads the holder empty twice, one beat apart', async () => {
    const check = await crashTakeover(slowBackend(150), () => (delayMs) => delayMs);
    check();
  });

  it('a crash takeover that missed a beat between its two empty reads fails, on a slow store', async () => {
    const check = await crashTakeover(slowBackend(150), missedBeat);
    expect(check).toThrow(/waited 6\d\d ms, bounds 295 to 3\d\d ms/);
  });

  it('a hand-over whose first request was lost fails: the first request is the one answered', async () => {
    const scenario = handoffScenarios.find((one) => one.name.startsWith('another server whose'))!;
    const backend = slowBackend();
    backend.loseFirstRequest = true;
    await expect(withCluster(backend, (cluster) => scenario.run(cluster))).rejects.toThrow(
      /^A received B's first request only after B repeated it\ntrace of the wait/,
    );
    expect(backend.loseFirstRequest).toBe(false); // it was lost
  });
});
