/**
 * What DataDriver does, as typed events: for metrics, logs and the demo's timeline. The
 * logger's warnings are derived from these same events (`describeEvent`), so the two never
 * disagree.
 */
import { type DataDriverError, describeError } from './errors.js';
import type { Logger } from './ports/logger.js';
import type { LockInfo, TakeReason } from './rules/index.js';

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

export type WaitReason = 'local-load' | 'local-release' | 'local-session' | 'locked';
export type PresenceAnswerName = 'alive' | 'stopped' | 'unknown';
export type RequestAction =
  | 'reply'
  | 'kick'
  | 'release'
  | 'retry-release'
  | 'await-load'
  | 'await-release'
  /** Too many servers already wait for this key: recorded nowhere, answered by no reply. */
  | 'ignored';

export type DataDriverEvent =
  | (KeyEvent & { readonly type: 'load.started'; readonly session: boolean })
  | (KeyEvent & {
      readonly type: 'load.waiting';
      readonly reason: WaitReason;
      readonly holder?: LockInfo;
    })
  | (KeyEvent & {
      readonly type: 'load.loaded';
      readonly reason: TakeReason | 'adopted';
      readonly waitedMs: number;
    })
  | (KeyEvent & {
      readonly type: 'load.failed';
      readonly waitedMs: number;
      readonly error: DataDriverError;
    })
  | (KeyEvent & {
      readonly type: 'lock.taken';
      readonly reason: TakeReason;
      readonly from: LockInfo;
    })
  | (KeyEvent & { readonly type: 'lock.lost'; readonly holder?: LockInfo })
  | (KeyEvent & {
      readonly type: 'presence.read';
      readonly holder: string;
      readonly answer: PresenceAnswerName;
    })
  | (KeyEvent & {
      readonly type: 'handoff.request.sent';
      readonly holder: string;
      readonly token?: string;
    })
  | (KeyEvent & {
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
  | (KeyEvent & { readonly type: 'handoff.reply.received' })
  | (KeyEvent & {
      readonly type: 'profile.kicked';
      readonly player: string;
      readonly message: string;
    })
  | (KeyEvent & { readonly type: 'profile.saved'; readonly reason: SaveReason })
  | (KeyEvent & {
      readonly type: 'profile.save-failed';
      readonly reason: SaveReason;
      readonly error: DataDriverError;
    })
  | (KeyEvent & { readonly type: 'profile.releasing' })
  | (KeyEvent & { readonly type: 'profile.released' })
  | (KeyEvent & { readonly type: 'profile.restored'; readonly versionTime: number })
  | (KeyEvent & { readonly type: 'profile.erased' })
  | (KeyEvent & { readonly type: 'profile.release-failed'; readonly error: DataDriverError })
  | (KeyEvent & { readonly type: 'profile.adopted'; readonly outcome: 'kept' | 'lost' | 'unsaved' })
  | (KeyEvent & {
      readonly type: 'trade.committed' | 'trade.aborted';
      readonly trade: string;
      readonly keys: readonly string[];
    })
  | (KeyEvent & {
      readonly type: 'trade.recovered';
      readonly trade: string;
      readonly outcome: 'committed' | 'aborted';
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
      readonly type: 'driver.close-timeout';
      readonly driver: string;
      readonly keys: readonly string[];
    });

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event before the stream stamps it with the time and the server. */
export type EventPayload = DistributiveOmit<DataDriverEvent, 'time' | 'jobId'>;

/** A profile's event before its driver stamps it with the time, the server and its name. */
export type ProfileEventPayload = DistributiveOmit<
  Extract<DataDriverEvent, { readonly key: string }>,
  'time' | 'jobId' | 'driver'
>;

export type SaveReason = 'manual' | 'autosave' | 'adopt' | 'trade' | 'restore' | 'release';
export type DataDriverEventType = DataDriverEvent['type'];
export type EventListener = (event: DataDriverEvent) => void;

/**
 * The types `describeEvent` may log: an event of any other type is built only while someone
 * listens (`EventStream.listening`). A test checks this list against `describeEvent`.
 */
export const LOGGED_EVENT_TYPES: ReadonlySet<DataDriverEventType> = new Set([
  'lock.taken',
  'lock.lost',
  'profile.save-failed',
  'profile.release-failed',
  'profile.adopted',
  'presence.beat-failed',
  'handoff.request.failed',
  'handoff.subscribe-failed',
  'handoff.rejected',
  'handoff.limited',
  'driver.close-timeout',
  'trade.recovered',
  'load.failed',
]);

/** The log line for an event, with the seed's words for its warnings. */
export function describeEvent(
  event: DataDriverEvent,
): { level: keyof Logger; message: string } | undefined {
  switch (event.type) {
    case 'lock.taken':
      if (event.reason === 'stolen') {
        return {
          level: 'warn',
          message: `took the lock of ${event.key} from server ${event.from.jobId}, which stopped beating presence.`,
        };
      }
      if (event.reason === 'stale') {
        return {
          level: 'warn',
          message: `took the stale lock of ${event.key} from server ${event.from.jobId}, silent since ${new Date(event.from.time).toISOString()}.`,
        };
      }
      return undefined;
    case 'lock.lost':
      return {
        level: 'warn',
        message: `lost the lock of ${event.key}${event.holder ? ` to server ${event.holder.jobId}` : ''}; the profile is deactivated.`,
      };
    case 'profile.save-failed':
      return {
        level: 'warn',
        message: `save of ${event.key} failed; it is kept and retried: ${describeError(event.error)}`,
      };
    case 'profile.release-failed':
      return {
        level: 'warn',
        message: `release of ${event.key} failed; the profile is retained and retried: ${describeError(event.error)}`,
      };
    case 'profile.adopted':
      return event.outcome === 'unsaved'
        ? {
            level: 'warn',
            message: `adopted the retained profile of ${event.key}, but could not save it yet; autosaves keep retrying.`,
          }
        : undefined;
    case 'handoff.request.failed':
      return event.first
        ? {
            level: 'warn',
            message: `a release request for ${event.key} to server ${event.holder} failed; the load waits and reads presence meanwhile, and more failures are not logged until one goes out: ${describeError(event.error)}`,
          }
        : undefined;
    case 'presence.beat-failed':
      return event.first
        ? {
            level: 'warn',
            message: `presence beat of server ${event.jobId} failed: ${describeError(event.error)}`,
          }
        : undefined;
    case 'handoff.subscribe-failed':
      return {
        level: 'warn',
        message: `handoff could not subscribe to ${event.topic}; falling back to polling: ${describeError(event.error)}`,
      };
    case 'handoff.rejected':
      return event.first
        ? {
            level: 'warn',
            message: `handoff dropped ${event.reason === 'unsigned' ? 'an unsigned' : 'a wrongly signed'} message (signing is on); more this minute are not logged.`,
          }
        : undefined;
    case 'handoff.limited':
      return event.first
        ? {
            level: 'warn',
            message: `handoff dropped a message it ${event.direction === 'publish' ? 'would have published' : 'was sent'}: over ${event.perMinute} a minute (MessagingService's limits); more drops this minute are not logged.`,
          }
        : undefined;
    case 'driver.close-timeout':
      return {
        level: 'warn',
        message: `close of ${event.driver} timed out with ${event.keys.length} profile(s) unreleased: ${event.keys.join(', ')}`,
      };
    case 'trade.recovered':
      return {
        level: 'info',
        message: `recovered trade ${event.trade} on ${event.key}: ${event.outcome}.`,
      };
    case 'load.failed':
      return {
        level: 'info',
        message: `load of ${event.key} failed after ${event.waitedMs} ms: ${describeError(event.error)}`,
      };
    default:
      return undefined;
  }
}

/**
 * Fans events out to listeners and to the logger. A throwing listener never breaks DataDriver.
 * An event nobody listens to and the logger never logs is dropped before it is stamped: no
 * object is built for it.
 */
export class EventStream {
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly logger: Logger,
    /** The time and the server each event is stamped with as it is emitted. */
    private readonly stamp: () => { readonly time: number; readonly jobId: string },
  ) {}

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True when an event of `type` would reach a listener or the logger. */
  listening(type: DataDriverEventType): boolean {
    return this.listeners.size > 0 || LOGGED_EVENT_TYPES.has(type);
  }

  /** Emits `payload`, stamped, with `extra` fields (a profile event's driver name). */
  emit(payload: EventPayload, extra?: { readonly driver: string }): void {
    if (!this.listening(payload.type)) return;
    const event = { ...payload, ...extra, ...this.stamp() } as DataDriverEvent;
    const line = describeEvent(event);
    if (line) this.logger[line.level](line.message, { event: event.type });
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`an event listener threw on ${event.type}: ${describeError(error)}`);
      }
    }
  }
}
