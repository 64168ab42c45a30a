import {
  DataDriver,
  type DataDriverEvent,
  type DataDriverOptions,
  Handoff,
  type Logger,
  type Messenger,
  type Presence,
  type Profile,
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
 * A server's `Handoff` over `messenger` and `presence`, and its driver on `store` (named
 * PlayerData, defaults `{ coins: 0 }`, the clock, the log and that handoff), to which `options`
 * adds or which it overrides (given the handoff when it is a function).
 */
function handoffDriver(
  clock: VirtualClock,
  log: Recorded,
  jobId: string,
  ports: {
    messenger: Messenger;
    presence: Presence;
    store: Store;
    options:
      | Partial<DataDriverOptions<{ coins: number }>>
      | ((handoff: Handoff) => Partial<DataDriverOptions<{ coins: number }>>);
  },
) {
  const handoff = new Handoff({
    jobId,
    messenger: ports.messenger,
    presence: ports.presence,
    scheduler: clock,
    logger: log.logger,
  });
  const driver = new DataDriver({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: ports.store,
    scheduler: clock,
    logger: log.logger,
    handoff,
    ...(typeof ports.options === 'function' ? ports.options(handoff) : ports.options),
  });
  return { handoff, driver };
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
    const { handoff, driver } = handoffDriver(clock, log, jobId, {
      messenger,
      presence,
      store: connection,
      options: { messenger, presence, jobId, ...options },
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

/** One server's own connections to a `faultyFleet`'s shared backends, and its `Handoff`. */
export interface FleetPorts {
  readonly messenger: FaultyMessenger;
  readonly presence: FaultyPresence;
  readonly connection: FaultyStore;
  readonly handoff: Handoff;
}

/**
 * Servers with handoff on over one store, bus and presence on one virtual clock, each with its
 * own faulty connections (a fault hits only that server) and every event it emits. Each
 * driver gets a name, defaults, its connection, the clock, the log and its handoff;
 * `options(ports)` adds to them or replaces them.
 */
/**
 * `presence` as a presence that cannot tell when a key expires (no `getEntry`, as a presence of
 * a user's own may be): a waiting load then reads on its park schedule only.
 */
export function withoutExpiry(presence: Presence): Presence {
  return {
    specificationVersion: 'v1',
    set: (key, value, ttlSeconds) => presence.set(key, value, ttlSeconds),
    get: (key) => presence.get(key),
  };
}

/** Servers over one store, bus and presence; `tellsExpiry: false` hides the presence's expiry. */
export function faultyFleet({ tellsExpiry = true }: { tellsExpiry?: boolean } = {}) {
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const bus = new MemoryMessenger();
  const memory = new MemoryPresence(clock);
  const beats = tellsExpiry ? memory : withoutExpiry(memory);
  const log = recordingLogger();
  const server = (
    jobId: string,
    options: (ports: FleetPorts) => Partial<DataDriverOptions<{ coins: number }>> = () => ({}),
  ) => {
    const messenger = new FaultyMessenger(bus, { scheduler: clock });
    const presence = new FaultyPresence(beats, { scheduler: clock });
    const connection = new FaultyStore(store, { scheduler: clock });
    const { handoff, driver } = handoffDriver(clock, log, jobId, {
      messenger,
      presence,
      store: connection,
      options: (handoff) => options({ messenger, presence, connection, handoff }),
    });
    const ports = { messenger, presence, connection, handoff };
    const events: DataDriverEvent[] = [];
    driver.on((event) => events.push(event));
    return { ...ports, driver, events };
  };
  return { clock, store, bus, log, server };
}

/** Whether `key` is a trade journal's. */
export const isJournal = (key: string): boolean => key.includes('#trade/');

/**
 * On `server` of `bed`: alice (10 coins, saved) gives bob (0) her 10 coins, and the trade's
 * commit (the journal's second write) hangs until `commit` is released; the trade is under way.
 */
export async function tradeWithHungCommit(
  bed: Bed,
  server: { driver: DataDriver<{ coins: number }>; store: FaultyStore },
): Promise<{
  alice: Profile<{ coins: number }>;
  bob: Profile<{ coins: number }>;
  commit: ReturnType<FaultyStore['faults']['inject']>;
  trade: Promise<void>;
}> {
  const alice = await bed.clock.run(server.driver.load('alice'));
  const bob = await bed.clock.run(server.driver.load('bob'));
  alice.data.coins = 10;
  await bed.clock.run(alice.save());
  const commit = server.store.faults.inject({
    kind: 'stall',
    operation: 'update',
    matches: isJournal,
    skip: 1,
  });
  const trade = server.driver.trade(alice, bob, (x, y) => {
    x.coins -= 10;
    y.coins += 10;
  });
  return { alice, bob, commit, trade };
}

/** `server` hears no message from then on: every delivery to it is dropped. */
export function neverHears(server: { messenger: FaultyMessenger }): void {
  server.messenger.faults.inject({
    kind: 'drop',
    operation: 'deliver',
    times: Number.POSITIVE_INFINITY,
  });
}
