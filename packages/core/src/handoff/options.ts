/**
 * What a `Handoff` is made with, what it routes messages to, and which options a driver
 * sharing a running handoff may not change.
 */

import type { EventStream } from '../events/event-stream.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import type { Messenger } from '../ports/messenger.js';
import type { Presence } from '../ports/presence.js';
import type { Scheduler } from '../ports/scheduler.js';
import { sameFields } from '../rules/config-checks.js';
import type { MessageLimits } from '../rules/index.js';
import { isWellFormedText, tooLong } from '../rules/keys.js';
import type { BackendPorts } from './backends.js';
import type { HandoffSigning } from './signing.js';
import { type HandoffTimings, resolveTimings } from './timings.js';
import type { HandedRecord, RequestReason } from './wire.js';

/** What a handoff routes messages to: a DataDriver, by its name. */
export interface HandoffClient {
  readonly name: string;
  /**
   * Another server asks this driver to release `key`; `token` names the lock it saw, `reason`
   * why it asks when not for a player's join, `handTo` the token of its load, which this
   * driver's release may write as the requester's lock (the requester asked for a hand-over).
   */
  receiveHandoffRequest(
    key: string,
    requester: string,
    token: string | undefined,
    reason?: RequestReason,
    handTo?: string,
  ): void;
  /** Why this driver asks for `key` when not for a player's join (`restoreAt`, `erase`). */
  requestReason?(key: string): RequestReason | undefined;
  /**
   * The server this driver asked no longer holds `key`; `handed`, the record its release wrote
   * with the lock of this driver's load, when the reply carried one under a valid signature.
   */
  receiveHandoffReply(key: string, handed?: HandedRecord): void;
  /** `key` has a message pending (a sender's nudge): its holder here applies it. */
  receiveMessageNudge?(key: string): void;
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
  /** The default timings by default; scale them down for fast tests and demos. */
  readonly timings?: Partial<HandoffTimings>;
  /** How many messages this server publishes and accepts (MessagingService's by default). */
  readonly limits?: Partial<MessageLimits>;
  /** Sign every message with the fleet's key and drop unsigned ones (off by default). */
  readonly signing?: HandoffSigning;
}

/**
 * Refuses options a shared handoff would otherwise silently ignore: `differing` (signing or
 * limits, as its gate found them), and `timings` other than the `running` ones.
 */
export function refuseOtherOptions(
  jobId: string,
  differing: readonly string[],
  running: HandoffTimings,
  timings: Partial<HandoffTimings> | undefined,
): void {
  const differs = [...differing];
  if (timings !== undefined && !sameFields(resolveTimings(timings), running)) {
    differs.push('timings');
  }
  if (differs.length === 0) return;
  throw new DataDriverError(
    ErrorCode.InvalidConfig,
    `the handoff of server ${jobId} already runs with other ${differs.join(', ')} (set by the first driver attached, or Handoff.shared); give every driver of this server the same handoffSigning, handoffLimits and timings, or make the Handoff first and pass it as the handoff option`,
    { details: { jobId, differs } },
  );
}

/** `jobId`, or `Data.InvalidConfig` unless it is well-formed text within `MAX_NAME_BYTES`. */
export function checkJobId(jobId: unknown): string {
  if (!isWellFormedText(jobId)) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      'a handoff needs a non-empty jobId of well-formed UTF-16 (no lone surrogates)',
    );
  }
  const long = tooLong(jobId);
  if (long) throw new DataDriverError(ErrorCode.InvalidConfig, `a handoff's jobId ${long}`);
  return jobId;
}
