/**
 * Decorators that count every call a server makes to its store, presence and message bus, so
 * the idle cost is a count of real operations rather than an estimate.
 */
import type {
  JsonObject,
  MessageHandler,
  Messenger,
  Presence,
  Store,
  StoreRecord,
  StoreTransform,
  Subscription,
  UpdateOptions,
} from '@datadriver/core/ports';
import type { Ports } from './in-process-server.js';

export type PortName = 'store' | 'presence' | 'bus';

export class OperationCounts {
  readonly byOperation = new Map<string, number>();

  add(port: PortName, operation: string): void {
    const name = `${port}.${operation}`;
    this.byOperation.set(name, (this.byOperation.get(name) ?? 0) + 1);
  }

  total(port: PortName): number {
    let sum = 0;
    for (const [name, count] of this.byOperation) if (name.startsWith(`${port}.`)) sum += count;
    return sum;
  }

  reset(): void {
    this.byOperation.clear();
  }
}

export function countingPorts(ports: Ports, counts: OperationCounts): Ports {
  return {
    store: countingStore(ports.store, counts),
    presence: countingPresence(ports.presence, counts),
    messenger: countingMessenger(ports.messenger, counts),
  };
}

function countingStore(inner: Store, counts: OperationCounts): Store {
  return {
    specificationVersion: 'v2',
    update(key: string, transform: StoreTransform, options?: UpdateOptions) {
      counts.add('store', 'update');
      return inner.update(key, transform, options);
    },
    get(key: string): Promise<StoreRecord | undefined> {
      counts.add('store', 'get');
      return inner.get(key);
    },
  };
}

function countingPresence(inner: Presence, counts: OperationCounts): Presence {
  return {
    specificationVersion: 'v1',
    set(key: string, value: string, ttlSeconds: number) {
      counts.add('presence', 'set');
      return inner.set(key, value, ttlSeconds);
    },
    get(key: string) {
      counts.add('presence', 'get');
      return inner.get(key);
    },
  };
}

function countingMessenger(inner: Messenger, counts: OperationCounts): Messenger {
  return {
    specificationVersion: 'v1',
    publish(topic: string, message: JsonObject) {
      counts.add('bus', 'publish');
      return inner.publish(topic, message);
    },
    subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
      counts.add('bus', 'subscribe');
      return inner.subscribe(topic, (message) => {
        counts.add('bus', 'deliver');
        handler(message);
      });
    },
  };
}
