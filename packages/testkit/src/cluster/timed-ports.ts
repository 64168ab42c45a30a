/**
 * A server's real connections and timers, each call and each late timer written to the
 * cluster's `TimeLedger`, and the scenario's own passes of time. They sit right on the backend,
 * under the fault injectors: an injected stall or delay is part of a scenario, never of the
 * machine's lateness.
 */
import type { JsonObject, Messenger, Presence, Scheduler, Store } from '@datadriver/core';
import type {
  MessageHandler,
  PresenceEntry,
  ScheduledTask,
  StoreRecord,
  StoreSnapshot,
  StoreTransform,
  StoreVersions,
  Subscription,
  TaskPriority,
  UpdateOptions,
} from '@datadriver/core/ports';
import { presenceEntry } from '@datadriver/core/ports';
import type { ServerPorts } from './backend.js';
import type { TimeLedger } from './ledger.js';
import type { ClusterTime } from './time.js';

class TimedStore implements Store {
  readonly specificationVersion = 'v2';

  constructor(
    private readonly inner: Store,
    private readonly ledger: TimeLedger,
    private readonly server: string,
  ) {}

  get processLocal(): boolean {
    return this.inner.processLocal === true;
  }

  get versions(): StoreVersions | undefined {
    return this.inner.versions;
  }

  get maxRecordBytes(): number | undefined {
    return this.inner.maxRecordBytes;
  }

  update(
    key: string,
    transform: StoreTransform,
    options?: UpdateOptions,
  ): Promise<StoreSnapshot | undefined> {
    return this.ledger.timed('store', this.server, `update ${key}`, () =>
      this.inner.update(key, transform, options),
    );
  }

  get(key: string): Promise<StoreRecord | undefined> {
    return this.ledger.timed('store', this.server, `get ${key}`, () => this.inner.get(key));
  }
}

class TimedPresence implements Presence {
  readonly specificationVersion = 'v1';

  constructor(
    private readonly inner: Presence,
    private readonly ledger: TimeLedger,
    private readonly server: string,
  ) {}

  get processLocal(): boolean {
    return this.inner.processLocal === true;
  }

  get expiryCountedFrom(): Presence['expiryCountedFrom'] {
    return this.inner.expiryCountedFrom;
  }

  /** A beat: background work, on no wait's path, so not in the ledger. */
  set(key: string, value: string, ttlSeconds: number): Promise<void> {
    return this.inner.set(key, value, ttlSeconds);
  }

  get(key: string): Promise<string | undefined> {
    return this.ledger.timed('presence', this.server, `get ${key}`, () => this.inner.get(key));
  }

  /** The wrapped presence's `getEntry` (its `get` when it has none), timed as `get` is. */
  getEntry(key: string): Promise<PresenceEntry | undefined> {
    return this.ledger.timed('presence', this.server, `get ${key}`, () =>
      presenceEntry(this.inner, key),
    );
  }
}

class TimedMessenger implements Messenger {
  readonly specificationVersion = 'v1';

  constructor(
    private readonly inner: Messenger,
    private readonly ledger: TimeLedger,
    private readonly server: string,
  ) {}

  get processLocal(): boolean {
    return this.inner.processLocal === true;
  }

  /** Timed by its flight, from here to the subscriber (see `TimeLedger.delivered`). */
  publish(topic: string, message: JsonObject): Promise<void> {
    this.ledger.published(topic, message, this.server);
    return this.inner.publish(topic, message);
  }

  subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
    return this.ledger.timed('subscribe', this.server, topic, () =>
      this.inner.subscribe(topic, (message) => {
        this.ledger.delivered(this.server, topic, message);
        handler(message);
      }),
    );
  }
}

export function timedPorts(ports: ServerPorts, ledger: TimeLedger, server: string): ServerPorts {
  return {
    store: new TimedStore(ports.store, ledger, server),
    presence: new TimedPresence(ports.presence, ledger, server),
    messenger: new TimedMessenger(ports.messenger, ledger, server),
  };
}

/**
 * `inner` with each normal-priority timer's lateness in the ledger: how much later than due it
 * fired, by the cluster's clock. Background timers (beats, autosaves) pass through untimed.
 */
export function timedScheduler(inner: Scheduler, ledger: TimeLedger, server: string): Scheduler {
  return {
    now: () => inner.now(),
    schedule(delayMs: number, callback: () => void, priority?: TaskPriority): ScheduledTask {
      if (priority === 'background') return inner.schedule(delayMs, callback, priority);
      const armedAt = ledger.now();
      const armedOrder = ledger.mark();
      const due = armedAt + Math.max(0, delayMs);
      const what = `timer of ${delayMs} ms`;
      return inner.schedule(
        delayMs,
        () => {
          ledger.fired(server, armedAt, due, what, armedOrder);
          callback();
        },
        priority,
      );
    },
    repeat(intervalMs: number, callback: () => void, priority?: TaskPriority): ScheduledTask {
      if (priority === 'background') return inner.repeat(intervalMs, callback, priority);
      // Each run is due one interval after the previous one ran, as the scheduler arms it.
      let armedAt = ledger.now();
      let armedOrder = ledger.mark();
      const what = `repeat of ${intervalMs} ms`;
      return inner.repeat(
        intervalMs,
        () => {
          ledger.fired(server, armedAt, armedAt + intervalMs, what, armedOrder);
          armedAt = ledger.now();
          armedOrder = ledger.mark();
          callback();
        },
        priority,
      );
    },
  };
}

/**
 * `time` with each `pass(ms)` of the scenario's in the ledger, as a timer of `scenario`: a scenario
 * that lets 0.2 s pass before it releases a stalled save puts that pass inside the wait it
 * bounds, and a loaded machine can end it late (by 220 ms, on DynamoDB Local under load).
 */
export function timedTime(time: ClusterTime, ledger: TimeLedger): ClusterTime {
  return {
    scheduler: time.scheduler,
    exact: time.exact,
    now: () => time.now(),
    async pass(ms: number): Promise<void> {
      const armedAt = ledger.now();
      const armedOrder = ledger.mark();
      await time.pass(ms);
      ledger.fired('scenario', armedAt, armedAt + ms, `pass of ${ms} ms`, armedOrder);
    },
    step: () => time.step(),
    until: (promise, limitMs) => time.until(promise, limitMs),
  };
}
