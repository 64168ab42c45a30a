/**
 * Fault injection around any port: what a test needs to make a backend fail, lose a
 * response, stall, slow down, or drop, duplicate and delay messages. One decorator per
 * server connection, so a fault hits only that server. Works over the in-memory backend and
 * over real adapters alike.
 */
import type { JsonObject } from '../ports/json.js';
import type { MessageHandler, Messenger, Subscription } from '../ports/messenger.js';
import { type Presence, type PresenceEntry, presenceEntry } from '../ports/presence.js';
import type { Scheduler } from '../ports/scheduler.js';
import type {
  Store,
  StoreRecord,
  StoreSnapshot,
  StoreTransform,
  StoreVersions,
  UpdateOptions,
} from '../ports/store.js';
import { afterCall, beforeCall, Faults, losesResponse, lostResponseError } from './faults.js';

export interface FaultyOptions {
  /** The clock that latency and delays run on; needed only for those. */
  readonly scheduler?: Scheduler;
  /** Every call takes this long (ms) before it reaches the backend. */
  readonly latencyMs?: number;
}

/**
 * One decorated call: the faults taken for it run before it reaches the backend; a response
 * the faults lose is thrown away after the backend did the work (reads never lose one).
 */
async function faulted<T>(
  faults: Faults,
  options: FaultyOptions,
  call: { readonly operation: string; readonly key: string; readonly canLoseResponse: boolean },
  run: () => Promise<T>,
): Promise<T> {
  const label = `${call.operation} ${call.key}`;
  const taken = faults.take(call.operation, call.key);
  await beforeCall(taken, options.scheduler, options.latencyMs ?? 0, label);
  const result = await run();
  await afterCall(taken, options.scheduler);
  if (call.canLoseResponse && losesResponse(taken)) throw lostResponseError(label);
  return result;
}

/** What every decorator shares: its faults, the port it wraps, and that port's locality. */
abstract class FaultyPort<Port extends { readonly processLocal?: boolean }> {
  readonly faults = new Faults();

  constructor(
    readonly inner: Port,
    protected readonly options: FaultyOptions = {},
  ) {}

  get processLocal(): boolean {
    return this.inner.processLocal === true;
  }
}

export class FaultyStore extends FaultyPort<Store> implements Store {
  readonly specificationVersion = 'v2';

  get versions(): StoreVersions | undefined {
    return this.inner.versions;
  }

  get maxRecordBytes(): number | undefined {
    return this.inner.maxRecordBytes;
  }

  async update(
    key: string,
    transform: StoreTransform,
    options?: UpdateOptions,
  ): Promise<StoreSnapshot | undefined> {
    const call = { operation: 'update', key, canLoseResponse: true };
    return faulted(this.faults, this.options, call, () =>
      this.inner.update(key, transform, options),
    );
  }

  async get(key: string): Promise<StoreRecord | undefined> {
    const call = { operation: 'get', key, canLoseResponse: false };
    return faulted(this.faults, this.options, call, () => this.inner.get(key));
  }
}

export class FaultyPresence extends FaultyPort<Presence> implements Presence {
  readonly specificationVersion = 'v1';

  /** The wrapped presence's, so a decorated presence is waited for as the real one is. */
  get expiryCountedFrom(): Presence['expiryCountedFrom'] {
    return this.inner.expiryCountedFrom;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const call = { operation: 'set', key, canLoseResponse: true };
    await faulted(this.faults, this.options, call, () => this.inner.set(key, value, ttlSeconds));
  }

  async get(key: string): Promise<string | undefined> {
    const call = { operation: 'get', key, canLoseResponse: false };
    return faulted(this.faults, this.options, call, () => this.inner.get(key));
  }

  /** `get`'s faults, on the wrapped presence's `getEntry` (its `get` when it has none). */
  async getEntry(key: string): Promise<PresenceEntry | undefined> {
    const call = { operation: 'get', key, canLoseResponse: false };
    return faulted(this.faults, this.options, call, () => presenceEntry(this.inner, key));
  }
}

/**
 * `publish` faults hit messages this server sends; `deliver` faults (drop, duplicate,
 * delay) hit messages this server receives.
 */
export class FaultyMessenger extends FaultyPort<Messenger> implements Messenger {
  readonly specificationVersion = 'v1';

  async publish(topic: string, message: JsonObject): Promise<void> {
    const faults = this.faults.take('publish', topic);
    await beforeCall(
      faults,
      this.options.scheduler,
      this.options.latencyMs ?? 0,
      `publish ${topic}`,
    );
    if (faults.some((fault) => fault.spec.kind === 'drop')) return;
    await this.inner.publish(topic, message);
    await afterCall(faults, this.options.scheduler);
    if (losesResponse(faults)) throw lostResponseError(`publish ${topic}`);
  }

  async subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
    const faults = this.faults.take('subscribe', topic);
    await beforeCall(faults, this.options.scheduler, 0, `subscribe ${topic}`);
    return this.inner.subscribe(topic, (message) => this.deliver(topic, message, handler));
  }

  private deliver(topic: string, message: unknown, handler: MessageHandler): void {
    const faults = this.faults.take('deliver', topic);
    if (faults.some((fault) => fault.spec.kind === 'drop')) return;
    if (faults.some((fault) => fault.spec.kind === 'stall')) return; // a stopped server hears nothing
    const copies = faults.some((fault) => fault.spec.kind === 'duplicate') ? 2 : 1;
    const delay = faults
      .filter((fault) => fault.spec.kind === 'delay' || fault.spec.kind === 'latency')
      .reduce((sum, fault) => sum + (fault.spec.ms ?? 0), 0);
    for (let copy = 0; copy < copies; copy += 1) {
      if (delay > 0 && this.options.scheduler)
        this.options.scheduler.schedule(delay, () => handler(message));
      else handler(message);
    }
  }
}
