/**
 * What every part of one driver shares, built once by its constructor and never changed: the
 * settings, the ports, the logger and event stream, the key builder, the server identity and
 * the handoff link (each of those two the one owner of its own state).
 */

import type { DataDriverOptions } from '../config/options.js';
import { resolveSettings, type Settings } from '../config/settings.js';
import { EventStream } from '../events/event-stream.js';
import type { EventPayload, ProfileEventPayload } from '../events/events.js';
import type { HandoffClient } from '../handoff/handoff.js';
import { Handoff } from '../handoff/handoff.js';
import { HandoffLink } from '../handoff/link.js';
import { consoleLogger } from '../ports/console-logger.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { flatString } from '../ports/flat-string.js';
import type { Logger } from '../ports/logger.js';
import type { Scheduler } from '../ports/scheduler.js';
import type { Store } from '../ports/store.js';
import { SystemScheduler } from '../ports/system-scheduler.js';
import { TimerQueue } from '../ports/timer-queue.js';
import { nextUniqueId } from '../ports/unique-ids.js';
import { checkCreatedId, type DriverKeys, keysOf } from '../rules/keys.js';
import { BackgroundWrites } from './background-writes.js';
import { HealthMonitor } from './health-monitor.js';
import { ServerIdentity } from './identity.js';
import { InboxWriter } from './inbox-writer.js';
import { MessageHandlers } from './message-handlers.js';

export interface DriverContext {
  readonly name: string;
  readonly settings: Settings;
  readonly store: Store;
  readonly scheduler: Scheduler;
  /** Every profile's autosave timer, on one background task (`TimerQueue`). */
  readonly autosaves: TimerQueue;
  /** Every load attempt's hard end (`JoinDeadline`), on one task. */
  readonly hardEnds: TimerQueue;
  readonly logger: Logger;
  readonly events: EventStream;
  readonly keys: DriverKeys;
  readonly identity: ServerIdentity;
  readonly link: HandoffLink;
  /** Journal clean-ups in flight: `close()` waits for them. */
  readonly background: BackgroundWrites;
  /** Makes lock tokens and trade ids, each one checked (`idMaker`). */
  readonly createId: () => string;
  /** This driver's inbox writes in flight and the sends waiting for the next (group commit). */
  readonly inboxWriter: InboxWriter;
  /** The `onMessage` a message pass runs. */
  readonly messageHandlers: MessageHandlers;
  /** `driver.health`, judged from this driver's store failures. */
  readonly health: HealthMonitor;
  /** Emits a driver's event, stamped with the time and the server. */
  report(event: EventPayload): void;
  /** Emits a profile's event, stamped with this driver's name, the time and the server. */
  emit(event: ProfileEventPayload): void;
}

/** Checks `options` and builds the context of the driver `client`. */
export function createContext<T extends object>(
  options: DataDriverOptions<T>,
  client: HandoffClient,
): DriverContext {
  const settings = resolveSettings(options);
  const scheduler = options.scheduler ?? new SystemScheduler();
  const logger = options.logger ?? consoleLogger();
  const given = Handoff.isInstance(options.handoff) ? options.handoff : undefined;
  if (given && options.jobId !== undefined && options.jobId !== given.jobId) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `jobId ${options.jobId} differs from the handoff's ${given.jobId}`,
    );
  }
  const identity = new ServerIdentity(
    options.store,
    settings.name,
    client,
    options.jobId ?? given?.jobId,
  );
  const events = new EventStream(logger, () => ({
    time: scheduler.now(),
    jobId: identity.jobId,
  }));
  const link = new HandoffLink(
    client,
    options as DataDriverOptions<object>,
    scheduler,
    logger,
    settings.timings,
    events,
  );
  const report = (event: EventPayload) => events.emit(event);
  const stamped = { driver: settings.name }; // what every profile event adds: one object, shared
  const health = new HealthMonitor(scheduler, settings.health, settings.name, report);
  return Object.freeze({
    name: settings.name,
    settings,
    store: options.store,
    scheduler,
    autosaves: new TimerQueue(scheduler, 'background'),
    hardEnds: new TimerQueue(scheduler, 'normal'),
    logger,
    events,
    keys: keysOf(settings.name),
    identity,
    link,
    background: new BackgroundWrites(),
    createId: idMaker(options.createId),
    inboxWriter: new InboxWriter(),
    messageHandlers: new MessageHandlers(settings.onMessage),
    health,
    report,
    // One object per event, and none while nobody listens and the logger would not log it.
    emit: (event: ProfileEventPayload) => {
      health.observe(event);
      events.emit(event as EventPayload, stamped);
    },
  });
}

/**
 * Lock tokens and trade ids: each id of a game's `createId` is checked as it is made (a bad
 * one fails the load or trade that asked, `Data.InvalidConfig`); the default's need none.
 * Flat: a token is keyed by, hashed and sent on every write (`flatString`).
 */
function idMaker(createId: (() => string) | undefined): () => string {
  if (createId === undefined) return () => flatString(nextUniqueId());
  return () => checkCreatedId(createId());
}
