/**
 * How events reach their listeners and the logger: every event is stamped with the time and
 * the server, turned into its log line (the seed's words for the warnings), and fanned out.
 */
import { describeError, ErrorCode } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import type {
  DataDriverEvent,
  DataDriverEventType,
  EventListener,
  EventPayload,
} from './events.js';

/**
 * The types `describeEvent` may log: an event of any other type is built only while someone
 * listens (`EventStream.listening`). A test checks this list against `describeEvent`.
 */
export const LOGGED_EVENT_TYPES: ReadonlySet<DataDriverEventType> = new Set([
  'lock.taken',
  'lock.lost',
  'profile.save-failed',
  'profile.release-failed',
  'profile.hook-failed',
  'profile.adopted',
  'presence.beat-failed',
  'handoff.request.failed',
  'handoff.subscribe-failed',
  'handoff.rejected',
  'handoff.limited',
  'driver.close-timeout',
  'driver.health',
  'trade.recovered',
  'trade.undecided',
  'load.failed',
  'message.failed',
  'message.inbox-failed',
  'message.delivery-failed',
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
    case 'profile.hook-failed':
      return { level: 'warn', message: event.error.message };
    case 'driver.health':
      return event.state === 'critical'
        ? {
            level: 'warn',
            message: `the store of ${event.driver} is critical: it failed repeatedly, last ${event.error ? describeError(event.error) : 'with no error'}; saves are kept and retried.`,
          }
        : { level: 'info', message: `the store of ${event.driver} is ok again.` };
    case 'trade.undecided':
      return {
        level: 'warn',
        message: `trade ${event.trade} of ${event.keys.join(', ')} is undecided: ${event.driver} closed before its decision was known; each participant's next load settles it from the journal.`,
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
    case 'message.failed':
      // Once per message and server: a message that always throws is tried at every autosave.
      return event.first ? { level: 'warn', message: event.error.message } : undefined;
    case 'message.inbox-failed':
      return {
        level: 'warn',
        message: `the inbox of ${event.key} could not be ${event.step === 'read' ? 'read' : 'trimmed'}: ${describeError(event.error)}`,
      };
    case 'message.delivery-failed':
      return {
        level: 'warn',
        message:
          event.error.code === ErrorCode.DeliveryUncertain
            ? event.error.message
            : `the transfer ${JSON.stringify(event.id)} from ${event.key} to ${event.to} was not delivered yet: ${describeError(event.error)}`,
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

  /**
   * Emits `payload`, stamped, with `extra` fields (a profile event's driver name); `log: false`
   * when the line was logged already (a shared handoff's event, through a shared logger).
   */
  emit(
    payload: EventPayload,
    extra?: { readonly driver: string },
    options?: { readonly log?: boolean },
  ): void {
    const log = options?.log !== false;
    if (log ? !this.listening(payload.type) : this.listeners.size === 0) return;
    // One copy, as `copyWith` makes one: a spread that gained the stamp's keys cost ~2 µs.
    const event = Object.assign({}, payload, extra, this.stamp()) as DataDriverEvent;
    const line = log ? describeEvent(event) : undefined;
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
