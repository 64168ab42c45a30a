/** What a `Handoff` is made with, and what it routes messages to. */
import type { EventStream } from './event-stream.js';
import type { BackendPorts } from './handoff-backends.js';
import type { Logger } from './ports/logger.js';
import type { Messenger } from './ports/messenger.js';
import type { Presence } from './ports/presence.js';
import type { Scheduler } from './ports/scheduler.js';
import type { MessageLimits } from './rules/index.js';
import type { HandoffSigning } from './signing.js';
import type { HandoffTimings } from './timings.js';
import type { RequestReason } from './wire.js';

/** What a handoff routes messages to: a DataDriver, by its name. */
export interface HandoffClient {
  readonly name: string;
  /**
   * Another server asks this driver to release `key`; `token` names the lock it saw, `reason`
   * why it asks when not for a player's join.
   */
  receiveHandoffRequest(
    key: string,
    requester: string,
    token: string | undefined,
    reason?: RequestReason,
  ): void;
  /** Why this driver asks for `key` when not for a player's join (`restoreAt`, `erase`). */
  requestReason?(key: string): RequestReason | undefined;
  /** The server this driver asked no longer holds `key`. */
  receiveHandoffReply(key: string): void;
  /** Profiles this driver holds or is loading: each adds to the server's publish budget. */
  readonly profileCount?: number;
}

/**
 * @internal What a driver attached to its server's shared handoff brings to it: the
 * messenger and presence of its backend (beaten and listened on too), and its event stream
 * and logger (the handoff's events reach them).
 */
export interface HandoffMembership {
  readonly ports?: BackendPorts;
  readonly events?: EventStream;
  readonly logger?: Logger;
}

export interface HandoffOptions {
  /** This server's id. */
  readonly jobId: string;
  readonly messenger: Messenger;
  readonly presence: Presence;
  readonly scheduler?: Scheduler;
  readonly logger?: Logger;
  /** The seed's constants by default; scale them down for fast tests and demos. */
  readonly timings?: Partial<HandoffTimings>;
  /** How many messages this server publishes and accepts (MessagingService's by default). */
  readonly limits?: Partial<MessageLimits>;
  /** Sign every message with the fleet's key and drop unsigned ones (off by default). */
  readonly signing?: HandoffSigning;
}
