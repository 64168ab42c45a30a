/**
 * The profile of a live hand-over: the same hop as handover.ts, but between two servers inside
 * this process (each with its own connections to the same backends) on a sub-millisecond
 * clock. Its total, set beside the two-process figure, separates what the protocol costs from
 * what the game-server processes add (the WebSocket kick, process scheduling); its steps show
 * where the protocol's own time goes. Its servers hand locks over in the release, as the
 * game-server processes do: three store round trips per hop.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { HighResScheduler } from '@datadriver/example-game-server/process';
import type { Combo, RunningBackends } from '../backends.js';
import type { BenchConfig } from '../config.js';
import { timed } from '../stats.js';
import { comboPorts } from './combo-ports.js';
import { StepTimes } from './handover-steps.js';
import { type InProcessServer, nextEvent, startServer } from './in-process-server.js';
import { counterOf } from './limit-backends.js';
import {
  ADAPTER_COMMANDS,
  type CallCounter,
  type Calls,
  DynamoRequestCounter,
  difference,
  per,
  sum,
} from './round-trips.js';

export interface HandoverProfile {
  /** From B's join to loaded on B (ms). */
  readonly samples: number[];
  /** Median of each step (ms). */
  readonly steps: Readonly<Record<string, number>>;
  /** Commands each recorded hop sent to the backends, on average (see round-trips.ts). */
  readonly callsPerHop: Calls;
  /** Recorded hops whose load took the lock the holder's release wrote for it (`handed`). */
  readonly handed: number;
}

export async function profileHandover(
  combo: Combo,
  backends: RunningBackends,
  config: BenchConfig,
): Promise<HandoverProfile> {
  const requests = new DynamoRequestCounter();
  const ports = await Promise.all([0, 1].map(() => comboPorts(combo, backends, requests)));
  const backend = await counterOf(combo, backends);
  const scheduler = new HighResScheduler();
  const tag = `bench-profile-${combo.id}-${process.pid}`;
  const servers = ports.map((each, index) =>
    // Locks handed over in the release, as the two-process hops hand them over.
    startServer({
      jobId: `${tag}-${index === 0 ? 'A' : 'B'}`,
      ports: each,
      scheduler,
      handOverLocks: true,
    }),
  );
  try {
    const counters = { backend, requests };
    return await hops(
      servers as [InProcessServer, InProcessServer],
      `${tag}-player`,
      config,
      counters,
    );
  } finally {
    for (const server of servers) await server.close();
    for (const each of ports) await each.close();
    backend.close();
  }
}

async function hops(
  servers: [InProcessServer, InProcessServer],
  key: string,
  config: BenchConfig,
  counters: { backend: CallCounter; requests: DynamoRequestCounter },
): Promise<HandoverProfile> {
  const samples: number[] = [];
  const steps = new StepTimes();
  let handed = 0;
  await joined(servers[0], key);
  let before = { backend: {}, dynamo: {} } as { backend: Calls; dynamo: Calls };
  for (let hop = 0; hop < config.warmUpHops + config.handovers; hop++) {
    if (hop === config.warmUpHops) {
      before = { backend: await counters.backend.snapshot(), dynamo: counters.requests.snapshot() };
    }
    const [holder, target] = hop % 2 === 0 ? servers : [servers[1], servers[0]];
    const coins = hop + 1;
    holder.drivers[0]!.profile(key)!.data.coins = coins; // unsaved on the holder: must travel
    const events = record([holder, target]);
    const took = await timed(() => joined(target, key));
    events.stop();
    if (target.drivers[0]!.profile(key)!.data.coins !== coins) {
      throw new Error(`in-process hand-over lost data on ${target.handoff.jobId}`);
    }
    if (hop < config.warmUpHops) continue;
    samples.push(took);
    if (events.reason(target, key) === 'handed') handed++;
    steps.add((on, type) => events.find(on === 'holder' ? holder : target, type, key));
  }
  const calls = sum(
    await counters.backend.since(before.backend),
    difference(counters.requests.snapshot(), before.dynamo),
  );
  const callsPerHop = per(calls, config.handovers, ADAPTER_COMMANDS);
  return { samples, steps: steps.medians(), callsPerHop, handed };
}

async function joined(server: InProcessServer, key: string): Promise<void> {
  const event = await nextEvent(server.drivers[0]!, key, ['load.loaded', 'load.failed'], () =>
    server.host.join(key),
  );
  if (event.type === 'load.failed') throw event.error;
}

/** Collects both servers' events during one hop. */
function record(servers: readonly InProcessServer[]) {
  const seen = new Map<InProcessServer, DataDriverEvent[]>();
  const stops = servers.map((server) => {
    seen.set(server, []);
    return server.drivers[0]!.on((event) => seen.get(server)!.push(event));
  });
  return {
    stop: () => {
      for (const stop of stops) stop();
    },
    find: (server: InProcessServer, type: DataDriverEvent['type'], key: string) =>
      seen.get(server)!.find((event) => event.type === type && 'key' in event && event.key === key)
        ?.time,
    /** Why `server`'s load of `key` took the lock. */
    reason: (server: InProcessServer, key: string) => {
      const loaded = seen
        .get(server)!
        .find((event) => event.type === 'load.loaded' && event.key === key);
      return loaded?.type === 'load.loaded' ? loaded.reason : undefined;
    },
  };
}
