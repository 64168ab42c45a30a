/**
 * The slack of a real-time bound is what the wait itself spent unscaled: a backend that turns
 * slow after the servers started moves the bound with it, and a wait on one scaled timer too
 * many still fails, however slow the backend. The in-memory ports on real time, under a store
 * whose every call takes `delayMs` of real time (a slow backend, below the ledger).
 */
import type { Messenger, Store } from '@datadriver/core';
import { SystemScheduler } from '@datadriver/core/ports';
import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { describe, expect, it } from 'vitest';
import {
  type ClusterBackend,
  expectWait,
  handoffScenarios,
  mark,
  realTime,
  SLACK_FLOOR_MS,
  settled,
  waitOf,
  withCluster,
} from '../src/index.js';

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

function slowBackend(): ClusterBackend & { delayMs: number; loseFirstRequest: boolean } {
  const scheduler = new SystemScheduler();
  const memory = new MemoryStore({ clock: scheduler });
  const presence = new MemoryPresence(scheduler);
  const backend = {
    loseFirstRequest: false,
    name: 'memory on real time, slow store',
    time: realTime(),
    scale: 0.1,
    delayMs: 0,
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
  let result: { waited: number; slack: number; passes: boolean } | undefined;
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
    const wait = waitOf(loaded);
    let passes = true;
    try {
      expectWait(cluster, wait, { exactMs: 340, atMostSeedMs: 1500 });
    } catch {
      passes = false;
    }
    result = { waited: wait.to - wait.from, slack: cluster.slackFor(wait), passes };
  });
  return result!;
}

describe('real-time bounds', () => {
  it('a backend that turns slow after the servers started: the slack is what the hand-over spent, and it passes', async () => {
    const { waited, slack, passes } = await handOver(slowBackend(), 100);
    // B's load, A's release save, B's next load: 100 ms calls one after another (the next load
    // may start during the save), on no scaled timer.
    expect(slack).toBeGreaterThanOrEqual(200);
    expect(waited).toBeGreaterThan(150 + SLACK_FLOOR_MS); // a slack measured at the start fails
    expect(passes).toBe(true);
  });

  it('a hand-over that waited out the 4 s request repeat fails its bound, however slow the store', async () => {
    const { waited, slack, passes } = await handOver(slowBackend(), 20, true);
    expect(waited).toBeGreaterThanOrEqual(400); // the first request was dropped
    expect(slack).toBeLessThan(waited - 150);
    expect(passes).toBe(false);
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
