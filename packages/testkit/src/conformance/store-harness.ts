/** What a Store adapter's conformance run gets from its test: the backend, seen directly. */
import type { Store, StoreRecord } from '@datadriver/core/ports';
import type { Outage } from './outage.js';

export interface StoreHarness {
  /** A new connection to the shared backend: concurrent updates come from several of these. */
  connect(): Promise<Store>;
  /** The record under `key` as the backend holds it, read without the adapter. */
  read(key: string): Promise<StoreRecord | undefined>;
  /**
   * Makes the backend unreachable to the adapter, then reachable again: stop the server, or
   * cut a TCP proxy between the adapter and it.
   */
  outage: Outage;
  close(): Promise<void>;
}
