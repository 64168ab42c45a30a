/** The driver's options and their defaults (checked once, by `settings.ts`). */
import type { ReleaseReason, SaveReason } from '../events/events.js';
import type { Handoff } from '../handoff/handoff.js';
import type { HandoffSigning } from '../handoff/signing.js';
import type { HandoffTimings } from '../handoff/timings.js';
import type { Logger } from '../ports/logger.js';
import type { Messenger } from '../ports/messenger.js';
import type { Presence } from '../ports/presence.js';
import type { Scheduler } from '../ports/scheduler.js';
import type { Store } from '../ports/store.js';
import type { DataSchema } from '../rules/data-schema.js';
import type { MessageLimits } from '../rules/message-budget.js';
import type { InboxMessage } from '../rules/messages/inbox.js';
import type { Migration } from '../rules/migrations.js';

/** A message sent to a profile (`DataDriver.send`), as `onMessage` receives it. */
export type ProfileMessage = InboxMessage;

/**
 * What `onMessage` gets of the profile a message is applied to: its key, and its data (a
 * draft: change it in place, synchronously; it is written with the message's id in one
 * compare-and-set, or dropped when the handler throws).
 */
export interface MessageTarget<T extends object> {
  readonly key: string;
  data: T;
}

/**
 * The game's handler of messages, run by the holder on each pending message once: change
 * `profile.data` synchronously. A handler that throws (or returns a promise) leaves the
 * message pending, the data as before it, and warns once (`Data.MessageFailed`).
 */
export type MessageHandler<T extends object> = (
  profile: MessageTarget<T>,
  message: ProfileMessage,
) => void;

/** The profile a save hook gets: its key, and its data to change in place. */
export type HookTarget<T extends object> = MessageTarget<T>;

/** What `afterSave` gets: the data as durably written, and the write's reason. */
export interface SavedData<T extends object> {
  readonly reason: SaveReason;
  /** A copy of the data as that write sent it. */
  readonly data: T;
  /** The record's version after the write, when the store reported it. */
  readonly version: number | undefined;
}

/** The messages a player sees when removed; each can be replaced. */
export interface KickMessages {
  /** The player's session here ended because they joined another server. */
  readonly joinedElsewhere: string;
  /** The join waited `lockWaitSeconds` for another server's lock and gave up. */
  readonly locked: string;
  /** A save found the lock taken by another server. */
  readonly lockLost: string;
  /** The backend failed while loading, or the game's `onLoad` threw. */
  readonly loadFailed: string;
  /** The same player connected again to this server: the newer connection takes the profile. */
  readonly rejoined: string;
  /** Support (`restoreAt`, `erase`, the `datadriver` CLI's restore and erase) took the profile. */
  readonly support: string;
}

export const DEFAULT_KICK_MESSAGES: KickMessages = Object.freeze({
  joinedElsewhere: 'You joined another server.',
  locked: 'Your data is still in use on another server. Please rejoin in a moment.',
  lockLost: 'Your data was loaded on another server.',
  loadFailed: 'Your data could not be loaded. Please rejoin.',
  rejoined: 'You joined again from another connection.',
  support: 'Support is working on your data. Please rejoin in a moment.',
});

export interface DataDriverOptions<T extends object> {
  /** The driver's name: the namespace of its keys, and how handoff routes its messages. */
  readonly name: string;
  /** A new profile's data; also fills keys missing from older records. */
  readonly defaults: T;
  readonly store: Store;
  /** Carries handoff requests and replies; handoff needs it. */
  readonly messenger?: Messenger;
  /** Holds the servers' presence beats; handoff needs it. */
  readonly presence?: Presence;
  /** Real timers by default; a `VirtualClock` in tests. */
  readonly scheduler?: Scheduler;
  /** Console by default. */
  readonly logger?: Logger;
  /**
   * This server's id. Tests set it to simulate several servers in one process, which turns
   * the default handoff off (pass a `Handoff` to have one).
   */
  readonly jobId?: string;
  /**
   * `false` turns handoff off; a `Handoff` is used as given; `true` or unset, the default
   * rule: on at `attach` for a live server whose store, messenger and presence reach other
   * servers. The server's shared handoff then beats presence and listens on the messenger of
   * every backend its drivers use (one beat and one subscription per distinct presence and
   * messenger object), so a driver may keep its profiles on a backend of its own.
   */
  readonly handoff?: Handoff | boolean;
  /**
   * Signs the default handoff's messages with the fleet's shared key (off by default); see
   * `HandoffOptions.signing`. A `Handoff` passed as `handoff` takes its own.
   */
  readonly handoffSigning?: HandoffSigning;
  /**
   * The default handoff's message budgets (MessagingService's limits by default); see
   * `HandoffOptions.limits`. Raise `receivePerMinute` for a fleet whose servers take more than
   * 600 hand-over requests a minute each.
   */
  readonly handoffLimits?: Partial<MessageLimits>;
  /**
   * Hand a lock over in the release (off by default, while fleets adopt it). A joining load
   * asks the holder for it with its request; the holder's release then writes the joiner's
   * lock instead of none, and the joiner's next attempt finds its own lock and takes it with a
   * read and no write: three store round trips per hand-over instead of four. It needs
   * `handoffSigning` on both servers: a handed lock names its receiver, which alone can clear
   * it while it beats presence, so a holder honours only a validly signed ask, and a joiner
   * without signing asks for none. Either side without it, or a build that predates it, hands
   * over as before. A holder hands over only to a load that asked within the last two request
   * repeats (8 s); a lock handed to a load that has since given up is cleared by its server
   * when another server asks for it, or taken by its next load of the key.
   */
  readonly handOverLocks?: boolean;
  /**
   * How long a joining player waits for another server's lock (default 15, plus one presence
   * TTL when `presence` counts expiry from its first read: see `defaultLockWaitSeconds`).
   *
   * It bounds the cross-server part of a join, counted from the end of its same-server wait
   * (`localHandoffSeconds`): the release requests (never awaited: a slow or hung bus delays
   * nothing), the parks on the holder's reply and the presence reads (each ends by this
   * deadline, and one beat after it started at most, as unknown). The read and the store
   * attempt after the last wake then decide the join: taken, or `Data.Locked`. A store attempt
   * is awaited one presence TTL past this deadline at most (then `Data.Timeout`; a lock its
   * write takes later is released), so a whole join ends within its same-server wait, this,
   * and one presence TTL. After a first
   * unknown presence answer the load reads again at once, so one failed read does not cost the
   * takeover of a crashed holder. See docs/guide/waits-and-backends.md.
   */
  readonly lockWaitSeconds?: number;
  /**
   * How long a load waits for a load or release of the same key on this server: the
   * same-server part of a join, before `lockWaitSeconds` starts. Unset, a player's join
   * (through `attach`) waits `lockWaitSeconds` for it, and `load`, `restoreAt` and `erase`
   * called directly wait 0 (or their own `handoffSeconds` option, when given).
   */
  readonly localHandoffSeconds?: number;
  /** Lock age after which a lock without presence protection can be taken (default 180). */
  readonly lockTtlSeconds?: number;
  /** Extra age allowed for clock differences between servers (default 60). */
  readonly lockSkewSeconds?: number;
  /** Autosave period per profile (default 30); at most half of `lockTtlSeconds`. */
  readonly autosaveSeconds?: number;
  /** Handoff timing constants used when this driver has no handoff (parking between retries). */
  readonly timings?: Partial<HandoffTimings>;
  readonly kickMessages?: Partial<KickMessages>;
  /**
   * Schema migrations applied on load, in ascending `version` order. A record written with a
   * newer schema than the last step is refused (`Data.NewerSchema`), never overwritten.
   */
  readonly migrations?: readonly Migration[];
  /**
   * A Standard Schema (zod, valibot, arktype...) the data must match: checked after defaults
   * and migrations on load (a record that fails is refused with `Data.InvalidData` naming the
   * paths and left untouched) and before each save and the release (nothing is written). It
   * checks and never rewrites: its output is not stored. The data type is inferred from it.
   */
  readonly schema?: DataSchema<T>;
  /**
   * When `driver.health` turns critical: `failures` store failures (default 5) within
   * `windowSeconds` (default 120); it is `ok` again after a whole window without one.
   */
  readonly health?: { readonly failures?: number; readonly windowSeconds?: number };
  /**
   * Makes lock tokens and trade ids, each new: a lock token names one load. By default, ids
   * unique across processes and restarts: a random prefix drawn once per process, then a counter.
   */
  readonly createId?: () => string;
  /**
   * Applies messages sent to a profile this server holds (`send`): at load before `onLoad`,
   * on the sender's nudge, and before each autosave. `attach`'s own `onMessage` takes its
   * place while attached. Without one, messages stay pending.
   */
  // A method, so a driver of any data type passes where one of `object` is expected.
  onMessage?(profile: MessageTarget<T>, message: ProfileMessage): void;
  /**
   * Runs right before each write of a profile's data (`reason`: `autosave`, `manual`,
   * `release`, `trade`, `message`...): change `profile.data` synchronously. One that throws
   * (or returns a promise) changes nothing: the data is as before it, and the save is refused
   * with `Data.HookFailed`, nothing written; a release goes on with that data, warned.
   */
  beforeSave?(profile: HookTarget<T>, reason: SaveReason): void;
  /** Runs once as a session starts to end, before its last save, with why it ends. */
  beforeRelease?(profile: HookTarget<T>, reason: ReleaseReason): void;
  /** Runs after each save or release landed, with the data as durably written. */
  afterSave?(profile: HookTarget<T>, saved: SavedData<T>): void;
}

/** The options with a `schema`: the data type comes from the schema, and `defaults` must match it. */
export type SchemaDriverOptions<T extends object> = Omit<
  DataDriverOptions<T>,
  'defaults' | 'schema'
> & {
  readonly schema: DataSchema<T>;
  readonly defaults: NoInfer<T>;
};

export const DEFAULTS = Object.freeze({
  lockWaitSeconds: 15,
  lockTtlSeconds: 180,
  lockSkewSeconds: 60,
  autosaveSeconds: 30,
});

/**
 * The join wait when `lockWaitSeconds` is unset: the default 15 s, plus one presence TTL for a
 * presence whose readers count expiry from their first read (`expiryCountedFrom`). Such a
 * reader calls a crashed server stopped a TTL after it first looked, which a join that starts
 * at the crash reaches one first wake later than a TTL counted from the last beat, and a join
 * long after the crash reaches a whole TTL after it started: the default 15 s would then cut
 * the wait off and kick the player before the takeover.
 */
export function defaultLockWaitSeconds(
  presence: Pick<Presence, 'expiryCountedFrom'> | undefined,
  presenceTtlSeconds: number,
): number {
  const late = presence?.expiryCountedFrom === 'first-read';
  return DEFAULTS.lockWaitSeconds + (late ? presenceTtlSeconds : 0);
}
