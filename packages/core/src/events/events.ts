/**
 * What DataDriver does, as typed events: for metrics, logs and the demo's timeline. The
 * logger's warnings are derived from these same events (`event-stream.ts`), so the two never
 * disagree.
 */
import type { DataDriverError } from '../ports/errors.js';
import type {
  LockInfo,
  PresenceAnswerName,
  RequestAction,
  TakeReason,
  WaitReason,
} from '../rules/index.js';

interface Base {
  /** The scheduler's clock when it happened (ms). */
  readonly time: number;
  /** The server it happened on. */
  readonly jobId: string;
}

interface KeyEvent extends Base {
  /** The driver's name. */
  readonly driver: string;
  /** The profile key. */
  readonly key: string;
}

/** One load's events (`load.*`, the requests and presence reads it makes, the lock it takes). */
interface LoadEvent extends KeyEvent {
  /** Counts this driver's loads from 1: ties a load's events together. */
  readonly loadId: number;
}

/** Why a player was kicked (`profile.kicked`). */
export type KickCause =
  /** Another server asked for the profile: the player joined there. */
  | 'joined-elsewhere'
  /** A newer connection of the same player loaded it here. */
  | 'rejoined'
  /** The load waited out `lockWaitSeconds` (`Data.Locked`). */
  | 'locked'
  /** The load failed otherwise, `keyOf` threw, or `onLoad` threw. */
  | 'load-failed'
  /** Another server took the lock: the session is lost. */
  | 'lock-lost'
  /** Support took the profile (`restoreAt`, `erase` on another server). */
  | 'support'
  /** An operator ended the session on purpose (`driver.kick`, `datadriver kick`). */
  | 'operator';

export type DataDriverEvent =
  | (LoadEvent & { readonly type: 'load.started'; readonly session: boolean })
  | (LoadEvent & {
      readonly type: 'load.waiting';
      readonly reason: WaitReason;
      readonly holder?: LockInfo;
    })
  | (LoadEvent & {
      /** The store failed; the load tries again in `nextInMs` (within `lockWaitSeconds`). */
      readonly type: 'load.retrying';
      readonly error: DataDriverError;
      /** Failed attempts so far, from 1. */
      readonly attempt: number;
      readonly nextInMs: number;
    })
  | (LoadEvent & {
      readonly type: 'load.loaded';
      readonly reason: TakeReason | 'adopted';
      readonly waitedMs: number;
    })
  | (LoadEvent & {
      readonly type: 'load.failed';
      readonly waitedMs: number;
      readonly error: DataDriverError;
    })
  | (LoadEvent & {
      readonly type: 'lock.taken';
      readonly reason: TakeReason;
      readonly from: LockInfo;
    })
  | (KeyEvent & { readonly type: 'lock.lost'; readonly holder?: LockInfo })
  | (LoadEvent & {
      readonly type: 'presence.read';
      readonly holder: string;
      readonly answer: PresenceAnswerName;
    })
  | (LoadEvent & {
      readonly type: 'handoff.request.sent';
      readonly holder: string;
      readonly token?: string;
    })
  | (LoadEvent & {
      /** A release request could not be sent (a bus failure, or too large); not `Throttled`. */
      readonly type: 'handoff.request.failed';
      readonly holder: string;
      readonly error: DataDriverError;
      /** The first failure since a request last went out: the one that warns. */
      readonly first: boolean;
    })
  | (KeyEvent & {
      readonly type: 'handoff.request.received';
      readonly requester: string;
      readonly token?: string;
      readonly action: RequestAction;
    })
  | (KeyEvent & { readonly type: 'handoff.reply.sent'; readonly requester: string })
  // `record`: the reply carried, signed, the record handed to the load waiting here.
  | (KeyEvent & { readonly type: 'handoff.reply.received'; readonly record?: true })
  | (KeyEvent & {
      readonly type: 'profile.kicked';
      readonly player: string;
      readonly message: string;
      readonly cause: KickCause;
    })
  | (KeyEvent & {
      readonly type: 'profile.saved';
      readonly reason: SaveReason;
      /** From the save's start (its wait for earlier writes excluded) to its landing. */
      readonly durationMs: number;
    })
  | (KeyEvent & {
      readonly type: 'profile.save-failed';
      readonly reason: SaveReason;
      readonly error: DataDriverError;
      readonly durationMs: number;
    })
  | (KeyEvent & {
      readonly type: 'profile.hook-failed';
      readonly hook: 'beforeSave' | 'beforeRelease' | 'afterSave';
      /** `Data.HookFailed`, its cause the hook's own error. */
      readonly error: DataDriverError;
    })
  | (KeyEvent & { readonly type: 'profile.releasing' })
  | (KeyEvent & {
      readonly type: 'profile.released';
      /** The server whose lock the release wrote, when it handed the lock over (`handOverLocks`). */
      readonly handedTo?: string;
    })
  | (KeyEvent & {
      readonly type: 'profile.restored';
      readonly versionTime: number;
      /**
       * Messages applied after the restored version (their effect rolled back with the data,
       * never applied again), as far as the profile remembers them: resend any with a new id.
       * Absent when none.
       */
      readonly rolledBackMessages?: readonly string[];
    })
  | (KeyEvent & { readonly type: 'profile.erased' })
  | (KeyEvent & { readonly type: 'profile.release-failed'; readonly error: DataDriverError })
  | (KeyEvent & { readonly type: 'profile.adopted'; readonly outcome: 'kept' | 'lost' | 'unsaved' })
  | (KeyEvent & {
      readonly type: 'trade.committed' | 'trade.aborted' | 'trade.undecided';
      readonly trade: string;
      readonly keys: readonly string[];
    })
  | (KeyEvent & {
      readonly type: 'trade.recovered';
      readonly trade: string;
      readonly outcome: 'committed' | 'aborted';
    })
  | (KeyEvent & {
      /** `DataDriver.send` resolved: `queued` (durable in the inbox) or `duplicate`. */
      readonly type: 'message.sent';
      readonly id: string;
      readonly outcome: 'queued' | 'duplicate';
    })
  | (KeyEvent & {
      /**
       * The holder's write carrying these messages' effects and ids is known committed: once
       * per message, however many times the write was retried. No bodies: a body is the
       * game's, and a listener that needs one has it in `onMessage`.
       */
      readonly type: 'message.applied';
      readonly ids: readonly string[];
    })
  | (KeyEvent & {
      /**
       * A pending message whose id the profile records as applied by an earlier holder (one
       * that stopped between its write and the inbox's trim): trimmed, not applied again.
       */
      readonly type: 'message.duplicate';
      readonly id: string;
    })
  | (KeyEvent & {
      /** `onMessage` failed this message (`Data.MessageFailed`): it stays pending. */
      readonly type: 'message.failed';
      readonly id: string;
      readonly error: DataDriverError;
      /** Its first failure on this server in this session: the one that warns. */
      readonly first: boolean;
    })
  | (KeyEvent & {
      /** The inbox could not be read, or trimmed after an apply: a later pass does it. */
      readonly type: 'message.inbox-failed';
      readonly step: 'read' | 'trim';
      readonly error: DataDriverError;
    })
  | (KeyEvent & {
      /** A transfer of profile `key` reached `to`'s inbox: `queued`, or `duplicate`. */
      readonly type: 'message.delivered';
      readonly to: string;
      readonly id: string;
      readonly outcome: 'queued' | 'duplicate';
    })
  | (KeyEvent & {
      /**
       * A transfer of profile `key` was not delivered to `to`: kept in the outbox and tried
       * again after a later write (a store failure), or, `Data.DeliveryUncertain`, never again.
       */
      readonly type: 'message.delivery-failed';
      readonly to: string;
      readonly id: string;
      readonly error: DataDriverError;
    })
  | (Base & { readonly type: 'presence.beat' })
  | (Base & {
      readonly type: 'presence.beat-failed';
      readonly error: DataDriverError;
      readonly first: boolean;
    })
  | (Base & {
      readonly type: 'handoff.subscribe-failed';
      readonly topic: string;
      readonly error: DataDriverError;
    })
  | (Base & { readonly type: 'handoff.subscribed'; readonly topic: string })
  | (Base & {
      readonly type: 'handoff.rejected';
      /** The message had no signature, or one that does not sign it. */
      readonly reason: 'unsigned' | 'invalid';
      /** The first of its kind in a minute: the one that warns. */
      readonly first: boolean;
    })
  | (Base & {
      readonly type: 'handoff.limited';
      /** `publish`: a message this server would have sent; `receive`: one it was sent. */
      readonly direction: 'publish' | 'receive';
      readonly perMinute: number;
      /** The first drop in a minute: the one that warns. */
      readonly first: boolean;
    })
  | (Base & {
      readonly type: 'driver.health';
      readonly driver: string;
      /** `critical` after a run of store failures (`health` option), `ok` a window after the last. */
      readonly state: 'ok' | 'critical';
      /** The failure that made it critical (absent when it turns `ok`). */
      readonly error?: DataDriverError;
    })
  | (Base & {
      readonly type: 'driver.close-timeout';
      readonly driver: string;
      readonly keys: readonly string[];
    });

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event before the stream stamps it with the time and the server. */
export type EventPayload = DistributiveOmit<DataDriverEvent, 'time' | 'jobId'>;

/** A profile's event before its driver stamps it with the time, the server and its name. */
export type ProfileEventPayload = DistributiveOmit<
  Extract<DataDriverEvent, { readonly key: string }>,
  'time' | 'jobId' | 'driver'
>;

/** One load's event before its driver stamps it (see `LoadEvent`). */
export type LoadEventPayload = Extract<ProfileEventPayload, { readonly loadId: number }>;

export type SaveReason =
  | 'manual'
  | 'autosave'
  | 'adopt'
  | 'trade'
  | 'restore'
  | 'release'
  /** A message pass applied messages (at load or on a nudge): their effect and ids. */
  | 'message';
/**
 * Why a session ends (`beforeRelease`): the player left, joined another server, rejoined here
 * on a newer connection, could not be set up (`onLoad` threw), support took the profile
 * (`restoreAt`, `erase`), an operator ended it (`driver.kick`), the driver shuts down, a load was aborted after its take, or the
 * game released it (`profile.release()`).
 */
export type ReleaseReason =
  | 'left'
  | 'joined-elsewhere'
  | 'rejoined'
  | 'load-failed'
  | 'support'
  | 'operator'
  | 'shutdown'
  | 'aborted'
  | 'manual';
export type DataDriverEventType = DataDriverEvent['type'];
export type EventListener = (event: DataDriverEvent) => void;
