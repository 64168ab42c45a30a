/** What the fuzz suite needs of a backend: a store, and direct access to what it holds. */
import type { Messenger, Presence, Store } from '@datadriver/core';

/** A backend as the suite sees it: a store, and direct access to what it holds. */
export interface FuzzHarness {
  /** A store over the backend, in a namespace of the harness's own. */
  readonly store: Store;
  /** The JSON of the record under store key `key` as the backend holds it, byte for byte. */
  readJson(key: string): Promise<string | undefined>;
  /** Writes `json` under store key `key` without the adapter, as another program might. */
  writeJson(key: string, json: string): Promise<void>;
  /** The backend key that holds store key `key` (the same string on a flat backend). */
  rawKeyOf(key: string): string;
  /** Every backend key of the namespace with its value, to tell what a run changed. */
  snapshot(): Promise<ReadonlyMap<string, string>>;
  /** For the message property: a bus and presence, and a way to publish raw payloads. */
  readonly bus?: FuzzBus;
  close(): Promise<void>;
}

export interface FuzzBus {
  readonly messenger: Messenger;
  readonly presence: Presence;
  /** Publishes `payload` as it is (any string) to `topic`. */
  publishRaw(topic: string, payload: string): Promise<void>;
  /** Resolves once what was published has been delivered. */
  settle(): Promise<void>;
}

export interface FuzzOptions {
  /** Runs per property (default `FUZZ_RUNS`, else 30). */
  readonly runs?: number;
  /** The seed (default `FUZZ_SEED`, else 14): a failure prints the seed and path to replay. */
  readonly seed?: number;
  /** Fuzz handoff messages too (default true; the harness then needs a `bus`). */
  readonly messages?: boolean;
}
