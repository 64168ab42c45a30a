import {
  DataDriver,
  type DataDriverEvent,
  type DataDriverOptions,
  Handoff,
  type Logger,
  type Messenger,
  type Presence,
  type Store,
} from '../src/index.js';
import type { ProfileRecord } from '../src/rules.js';
import {
  FaultyMessenger,
  FaultyPresence,
  FaultyStore,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';

export interface Recorded {
  readonly lines: Array<{ level: string; message: string }>;
  readonly logger: Logger;
  warnings(): string[];
}

/** A logger that keeps every line, so tests assert the seed's words. */
export function recordingLogger(): Recorded {
  const lines: Array<{ level: string; message: string }> = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return {
    lines,
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    warnings: () => lines.filter((line) => line.level === 'warn').map((line) => line.message),
  };
}

export interface Bed {
  readonly clock: VirtualClock;
  readonly store: MemoryStore;
  readonly log: Recorded;
  readonly events: DataDriverEvent[];
  driver(
    jobId: string,
    options?: Partial<DataDriverOptions<{ coins: number }>>,
  ): DataDriver<{ coins: number }>;
  /** A driver and its own store connection, whose faults hit only this server. */
  server(
    jobId: string,
    options?: Partial<DataDriverOptions<{ coins: number }>>,
  ): {
    driver: DataDriver<{ coins: number }>;
    store: FaultyStore;
  };
}

/** Several servers (drivers with their own jobId and store connection) on one clock and store. */
export function testBed(): Bed {
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const log = recordingLogger();
  const events: DataDriverEvent[] = [];
  return {
    clock,
    store,
    log,
    events,
    driver(jobId, options = {}) {
      return this.server(jobId, options).driver;
    },
    server(jobId, options = {}) {
      const connection = new FaultyStore(store, { scheduler: clock });
      const driver = new DataDriver({
        name: 'PlayerData',
        defaults: { coins: 0 },
        store: connection,
        scheduler: clock,
        logger: log.logger,
        jobId,
        ...options,
      });
      driver.on((event) => events.push(event));
      return { driver, store: connection };
    },
  };
}

/** The profile record as stored, for assertions. */
export function stored(
  store: MemoryStore,
  key: string,
  name = 'PlayerData',
): ProfileRecord | undefined {
  return store.peek(`${name}/${key}`) as ProfileRecord | undefined;
}

/** Ports that count as shared (as Redis's would), so attach turns handoff on. */
export function sharedPorts(clock: VirtualClock) {
  const shared = <P extends object>(port: P): P =>
    Object.defineProperty(port, 'processLocal', { value: false });
  return {
    store: shared(new MemoryStore()),
    messenger: shared(new MemoryMessenger()),
    presence: shared(new MemoryPresence(clock)),
  };
}

/**
 * Servers with handoff on over one bus and presence, on the bed's clock, store and log: each
 * its own `Handoff` over its own faulty messenger (faults hit only that server's messages).
 */
export function handoffServers(bed: Bed) {
  const bus = new MemoryMessenger();
  const presence = new MemoryPresence(bed.clock);
  return (jobId: string, options: Partial<DataDriverOptions<{ coins: number }>> = {}) => {
    const messenger = new FaultyMessenger(bus, { scheduler: bed.clock });
    const handoff = new Handoff({
      jobId,
      messenger,
      presence,
      scheduler: bed.clock,
      logger: bed.log.logger,
    });
    return { ...bed.server(jobId, { handoff, ...options }), handoff, messenger };
  };
}

/**
 * Servers with handoff on over one store and bus, each with its own connections slowed as a
 * real backend's are: `storeMs` a store call, `presenceMs` a presence call (the testkit's
 * in-memory scenarios use 100 and 10). `presenceFor` gives each server its presence backend.
 */
export function slowServers(
  clock: VirtualClock,
  shared: { store: Store; messenger: Messenger; log: Recorded },
  latency: { storeMs: number; presenceMs: number; presenceFor: (jobId: string) => Presence },
) {
  return (jobId: string, options: Partial<DataDriverOptions<{ coins: number }>> = {}) => {
    const { messenger, log } = shared;
    const presence = new FaultyPresence(latency.presenceFor(jobId), {
      scheduler: clock,
      latencyMs: latency.presenceMs,
    });
    const connection = new FaultyStore(shared.store, {
      scheduler: clock,
      latencyMs: latency.storeMs,
    });
    const handoff = new Handoff({
      jobId,
      messenger,
      presence,
      scheduler: clock,
      logger: log.logger,
    });
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store: connection,
      messenger,
      presence,
      scheduler: clock,
      logger: log.logger,
      jobId,
      handoff,
      ...options,
    });
    return { driver, handoff, connection, presence };
  };
}

/** The calls `store` counted since the last look, as a remote store would make them (then zeroed). */
export function callsSince(store: MemoryStore): () => { reads: number; compareAndSets: number } {
  const { calls } = store;
  return () => {
    const taken = { ...calls };
    calls.reads = 0;
    calls.compareAndSets = 0;
    return taken;
  };
}
