/**
 * The loads in flight on one driver, each with its start, the first wait it met and its span.
 * Core's load events carry the key but no id of the load: a second load of a key started while
 * the first is in flight waits for it on this server (`local-load`), so same-server waits go to
 * the newest load and everything of the cross-server wait to the oldest, which finishes first.
 */
import type { Span } from '@opentelemetry/api';

export interface LoadInFlight {
  readonly startedAt: number;
  readonly session: boolean;
  /** The first reason this load waited, or `undefined` if it never did. */
  waitedOn: string | undefined;
  readonly span: Span | undefined;
}

export class LoadTracker {
  private readonly loads = new Map<string, LoadInFlight[]>();

  start(key: string, load: LoadInFlight): void {
    const queue = this.loads.get(key);
    if (queue) queue.push(load);
    else this.loads.set(key, [load]);
  }

  /** The load a same-server wait belongs to (the newest). */
  newest(key: string): LoadInFlight | undefined {
    return this.loads.get(key)?.at(-1);
  }

  /** The load the store attempts, requests and presence reads belong to (the oldest). */
  oldest(key: string): LoadInFlight | undefined {
    return this.loads.get(key)?.[0];
  }

  /** The oldest load of `key`, which has just settled. */
  finish(key: string): LoadInFlight | undefined {
    const queue = this.loads.get(key);
    const load = queue?.shift();
    if (queue?.length === 0) this.loads.delete(key);
    return load;
  }

  /** Every load still in flight (for a detach). */
  drain(): LoadInFlight[] {
    const all = [...this.loads.values()].flat();
    this.loads.clear();
    return all;
  }
}
