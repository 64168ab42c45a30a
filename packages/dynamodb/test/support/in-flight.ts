import type { Store } from '@datadriver/core';

/**
 * Tracks the store calls in flight across connections, so an outage can begin once they have
 * settled. The conformance suite's conflict case fires a racing write with `void` and moves
 * on; were the outage to cut it mid-flight, its rejection would surface as unhandled.
 */
export class InFlight {
  private readonly calls = new Set<Promise<unknown>>();

  track(store: Store): Store {
    return {
      specificationVersion: store.specificationVersion,
      ...(store.versions && { versions: store.versions }),
      get: (key) => this.add(store.get(key)),
      update: (key, transform, options) => this.add(store.update(key, transform, options)),
    };
  }

  /** Resolves once every call made so far has settled, whatever its outcome. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.calls]);
  }

  private add<T>(call: Promise<T>): Promise<T> {
    this.calls.add(call);
    const forget = () => void this.calls.delete(call);
    call.then(forget, forget);
    return call;
  }
}
