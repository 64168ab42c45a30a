/**
 * Ports that count the calls reaching them (and claim to reach other processes, as a Redis or
 * DynamoDB adapter does, so attach turns handoff on): what a server costs its backend.
 */
import type { JsonObject, Messenger, Presence } from '../src/index.js';
import type { MessageHandler, Subscription } from '../src/ports.js';
import {
  FaultyPresence,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  type VirtualClock,
} from '../src/testing.js';

export class CountedPresence implements Presence {
  readonly specificationVersion = 'v1';
  readonly processLocal = false;
  sets = 0;
  gets = 0;
  /** Calls started and not settled yet. */
  inFlight = 0;

  constructor(readonly inner: Presence) {}

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.sets += 1;
    return this.count(this.inner.set(key, value, ttlSeconds));
  }

  async get(key: string): Promise<string | undefined> {
    this.gets += 1;
    return this.count(this.inner.get(key));
  }

  private async count<T>(call: Promise<T>): Promise<T> {
    this.inFlight += 1;
    try {
      return await call;
    } finally {
      this.inFlight -= 1;
    }
  }
}

export class CountedMessenger implements Messenger {
  readonly specificationVersion = 'v1';
  readonly processLocal = false;
  publishes = 0;
  subscribes = 0;
  /** Subscriptions made and not ended. */
  active = 0;

  constructor(readonly inner: Messenger) {}

  async publish(topic: string, message: JsonObject): Promise<void> {
    this.publishes += 1;
    return this.inner.publish(topic, message);
  }

  async subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
    this.subscribes += 1;
    const subscription = await this.inner.subscribe(topic, handler);
    this.active += 1;
    return {
      unsubscribe: async () => {
        this.active -= 1;
        await subscription.unsubscribe();
      },
    };
  }
}

/** One backend: a store, a bus and a presence, shared by the servers that use it. */
export function countedBackend(clock: VirtualClock) {
  const store = Object.defineProperty(new MemoryStore(), 'processLocal', { value: false });
  return {
    store,
    bus: new MemoryMessenger(),
    beats: new MemoryPresence(clock),
    /**
     * One server's connections to this backend: its own counted messenger and presence, the
     * presence's calls counted before its faults (`presenceFaults`) act.
     */
    connect() {
      const faulty = new FaultyPresence(this.beats, { scheduler: clock });
      return {
        store,
        messenger: new CountedMessenger(this.bus),
        presence: new CountedPresence(faulty),
        presenceFaults: faulty.faults,
      };
    },
  };
}
