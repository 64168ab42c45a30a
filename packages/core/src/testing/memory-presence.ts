import type { Presence, PresenceEntry } from '../ports/presence.js';
import type { Scheduler } from '../ports/scheduler.js';
import { SystemScheduler } from '../ports/system-scheduler.js';

interface Entry {
  readonly value: string;
  readonly expiresAt: number;
}

/**
 * Expiring keys inside one process. Expiry follows one clock for every reader, as a real
 * store's own clock would, whatever skew the servers' clocks have.
 */
export class MemoryPresence implements Presence {
  readonly specificationVersion = 'v1';
  readonly processLocal = true;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Pick<Scheduler, 'now'> = new SystemScheduler()) {}

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.clock.now() + ttlSeconds * 1000 });
  }

  async get(key: string): Promise<string | undefined> {
    return this.peek(key);
  }

  /** The live value under `key` and the ms until its deadline. */
  async getEntry(key: string): Promise<PresenceEntry | undefined> {
    const value = this.peek(key);
    const entry = this.entries.get(key);
    if (value === undefined || entry === undefined) return undefined;
    return { key, value, expiresInMs: entry.expiresAt - this.clock.now() };
  }

  /** The live value under `key`, read at once: for test assertions. */
  peek(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
}
