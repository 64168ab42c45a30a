/** What the parts of a DataDriver share: its sessions, its loads in flight, and its ports. */
import type { ProfileEventPayload } from './events.js';
import type { Handoff } from './handoff.js';
import type { Settings } from './options.js';
import type { Host, HostPlayer } from './ports/host.js';
import type { Logger } from './ports/logger.js';
import type { Scheduler } from './ports/scheduler.js';
import type { Store } from './ports/store.js';
import type { ProfileSession } from './profile.js';
import type { Signal } from './signal.js';

/** A load in flight on this server. */
export interface LoadReservation {
  readonly token: string;
  /** Requests that arrived while the load was in flight: answered when it settles. */
  readonly requesters: Map<string, string | undefined>;
  readonly cancelled: () => boolean;
  /** Woken by the holder's reply (and by a cancel). */
  readonly reply: Signal;
}

export interface DriverState {
  readonly name: string;
  readonly settings: Settings;
  readonly store: Store;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** The profiles this server holds or retains, by key. */
  readonly sessions: Map<string, ProfileSession>;
  readonly loads: Map<string, LoadReservation>;
  /** Same-server waits park here and re-check when any session or load changes. */
  readonly local: Signal;
  readonly jobId: string;
  readonly handoff: Handoff | undefined;
  readonly host: Host<HostPlayer> | undefined;
  readonly closed: boolean;
  /** Emits a profile's event, stamped with this driver's name, the time and the server. */
  emit(event: ProfileEventPayload): void;
  storeKey(key: string): string;
}
