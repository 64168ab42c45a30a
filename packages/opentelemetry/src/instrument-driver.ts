/**
 * `instrumentDriver`: a DataDriver's typed events (`driver.on`) as metrics and spans, through
 * `@opentelemetry/api`, so the user's own SDK and exporter receive them. Nothing here changes
 * what the driver does; a throwing exporter is the SDK's to report.
 */
import type { DataDriverEvent, EventListener } from '@datadriver/core';
import {
  type Attributes,
  type MeterProvider,
  metrics,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { DriverMetrics } from './driver-metrics.js';
import { handoffSpanContext } from './handoff-link.js';
import { HolderSpans } from './holder-spans.js';
import { KickCauses } from './kick-causes.js';
import { LoadTracker } from './load-tracker.js';
import { ATTRIBUTES, SPANS } from './names.js';
import { SCOPE, VERSION } from './scope.js';

/** What `instrumentDriver` needs of a driver: its name, its events and its active profiles. */
export interface InstrumentedDriver {
  readonly name: string;
  on(listener: EventListener): () => void;
  profile(key: string): { readonly active: boolean } | undefined;
  /** `driver.health` (a core before it has none: the gauge then reports nothing). */
  readonly health?: { readonly state: 'ok' | 'critical' };
}

export interface InstrumentOptions {
  /** Default: the global one (`metrics.getMeterProvider()`), set by the user's SDK. */
  readonly meterProvider?: MeterProvider;
  /** Default: the global one (`trace.getTracerProvider()`). */
  readonly tracerProvider?: TracerProvider;
  /**
   * Put the profile key on spans as `datadriver.profile.key` (never on metrics). Off by default:
   * a key is often a user id, which many teams keep out of telemetry.
   */
  readonly includeKeys?: boolean;
}

/** Starts reporting `driver`'s events; returns a function that stops (open spans are ended). */
export function instrumentDriver(
  driver: InstrumentedDriver,
  options: InstrumentOptions = {},
): () => void {
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION);
  const active = new Set<string>();
  const countActive = () => {
    let count = 0;
    for (const key of active) {
      if (driver.profile(key)?.active) count += 1;
      else active.delete(key);
    }
    return count;
  };
  const critical = () =>
    driver.health === undefined ? undefined : driver.health.state === 'critical' ? 1 : 0;
  const recorder = new DriverMetrics(meter, driver.name, countActive, critical);
  const loads = new LoadTracker();
  const holders = new HolderSpans(tracer, driver.name);
  const kicks = new KickCauses();
  const releasing = new Map<string, number>();
  const spanAttributes = (event: {
    readonly jobId: string;
    readonly key?: string;
  }): Attributes => ({
    [ATTRIBUTES.driver]: driver.name,
    [ATTRIBUTES.server]: event.jobId,
    ...(options.includeKeys && event.key !== undefined ? { [ATTRIBUTES.key]: event.key } : {}),
  });

  const handle = (event: DataDriverEvent): void => {
    if ('key' in event) kicks.saw(event);
    switch (event.type) {
      case 'load.started':
        loads.start(event.key, {
          startedAt: event.time,
          session: event.session,
          waitedOn: undefined,
          span: tracer.startSpan(SPANS.load, {
            startTime: event.time,
            attributes: { ...spanAttributes(event), [ATTRIBUTES.session]: event.session },
          }),
        });
        return;
      case 'load.waiting': {
        const load = event.reason === 'locked' ? loads.oldest(event.key) : loads.newest(event.key);
        if (load) load.waitedOn ??= event.reason;
        load?.span?.addEvent(
          'datadriver.load.waiting',
          {
            [ATTRIBUTES.waitedOn]: event.reason,
            ...(event.holder ? { [ATTRIBUTES.peerServer]: event.holder.jobId } : {}),
          },
          event.time,
        );
        return;
      }
      case 'handoff.request.sent': {
        recorder.count('requestsSent');
        const span = loads.oldest(event.key)?.span;
        span?.addEvent(
          'datadriver.handoff.request.sent',
          { [ATTRIBUTES.peerServer]: event.holder },
          event.time,
        );
        if (span && event.token !== undefined) {
          span.addLink({
            context: handoffSpanContext(driver.name, event.key, event.token),
            attributes: { [ATTRIBUTES.peerServer]: event.holder },
          });
        }
        return;
      }
      case 'presence.read':
        recorder.count('presenceReads', { [ATTRIBUTES.presenceAnswer]: event.answer });
        loads
          .oldest(event.key)
          ?.span?.addEvent(
            'datadriver.presence.read',
            { [ATTRIBUTES.peerServer]: event.holder, [ATTRIBUTES.presenceAnswer]: event.answer },
            event.time,
          );
        return;
      case 'handoff.reply.received':
        loads
          .oldest(event.key)
          ?.span?.addEvent('datadriver.handoff.reply.received', {}, event.time);
        return;
      case 'lock.taken':
        recorder.count('takeovers', { [ATTRIBUTES.takeoverReason]: event.reason });
        loads.oldest(event.key)?.span?.addEvent(
          'datadriver.lock.taken',
          {
            [ATTRIBUTES.takeoverReason]: event.reason,
            [ATTRIBUTES.peerServer]: event.from.jobId,
          },
          event.time,
        );
        return;
      case 'trade.recovered':
        recorder.count('tradeRecoveries', { [ATTRIBUTES.tradeOutcome]: event.outcome });
        loads
          .oldest(event.key)
          ?.span?.addEvent(
            'datadriver.trade.recovered',
            { [ATTRIBUTES.tradeOutcome]: event.outcome },
            event.time,
          );
        return;
      case 'load.loaded': {
        active.add(event.key);
        const load = loads.finish(event.key);
        const attributes = {
          [ATTRIBUTES.outcome]: 'loaded',
          [ATTRIBUTES.loadReason]: event.reason,
          [ATTRIBUTES.waitedOn]: load?.waitedOn ?? 'none',
          [ATTRIBUTES.session]: load?.session ?? false,
        };
        recorder.loaded(event.waitedMs, attributes);
        load?.span?.setAttributes(attributes);
        load?.span?.end(event.time);
        return;
      }
      case 'load.failed': {
        const load = loads.finish(event.key);
        const attributes = {
          [ATTRIBUTES.outcome]: 'failed',
          [ATTRIBUTES.errorType]: event.error.code,
          [ATTRIBUTES.waitedOn]: load?.waitedOn ?? 'none',
          [ATTRIBUTES.session]: load?.session ?? false,
        };
        recorder.loaded(event.waitedMs, attributes);
        load?.span?.setAttributes(attributes);
        // The code only: an error's message names the lock's token.
        load?.span?.setStatus({ code: SpanStatusCode.ERROR, message: event.error.code });
        load?.span?.end(event.time);
        return;
      }
      case 'handoff.request.received':
        recorder.count('requestsReceived', { [ATTRIBUTES.action]: event.action });
        holders.received(
          event.key,
          event.requester,
          event.token,
          { ...spanAttributes(event), [ATTRIBUTES.action]: event.action },
          event.time,
        );
        return;
      case 'handoff.reply.sent':
        holders.replied(event.key, event.requester, event.time);
        return;
      case 'profile.kicked':
        recorder.count('kicks', { [ATTRIBUTES.kickReason]: kicks.causeOf(event.key) });
        holders.event(
          event.key,
          'datadriver.profile.kicked',
          { [ATTRIBUTES.kickReason]: kicks.causeOf(event.key) },
          event.time,
        );
        return;
      case 'profile.releasing':
        if (!releasing.has(event.key)) releasing.set(event.key, event.time);
        holders.event(event.key, 'datadriver.profile.releasing', {}, event.time);
        return;
      case 'profile.released': {
        const started = releasing.get(event.key);
        releasing.delete(event.key);
        if (started !== undefined) recorder.released(event.time - started);
        holders.event(event.key, 'datadriver.profile.released', {}, event.time);
        return;
      }
      case 'profile.release-failed':
        recorder.count('releaseFailures', { [ATTRIBUTES.errorType]: event.error.code });
        holders.event(
          event.key,
          'datadriver.profile.release-failed',
          { [ATTRIBUTES.errorType]: event.error.code },
          event.time,
        );
        return;
      case 'profile.adopted':
      case 'profile.erased':
        releasing.delete(event.key);
        return;
      case 'lock.lost':
        releasing.delete(event.key);
        recorder.count('lockLosses');
        return;
      case 'profile.save-failed':
        recorder.count('saveFailures', {
          [ATTRIBUTES.errorType]: event.error.code,
          [ATTRIBUTES.saveReason]: event.reason,
        });
        return;
      case 'message.sent':
        recorder.count('messagesSent', { [ATTRIBUTES.messageOutcome]: event.outcome });
        return;
      case 'message.applied':
        recorder.count('messagesApplied', {}, event.ids.length);
        return;
      case 'message.duplicate':
        recorder.count('messageDuplicates');
        return;
      case 'message.failed':
        recorder.count('messageFailures', { [ATTRIBUTES.errorType]: event.error.code });
        return;
      case 'message.inbox-failed':
        recorder.count('inboxFailures', {
          [ATTRIBUTES.inboxStep]: event.step,
          [ATTRIBUTES.errorType]: event.error.code,
        });
        return;
      case 'message.delivered':
        recorder.count('transfersDelivered', { [ATTRIBUTES.messageOutcome]: event.outcome });
        return;
      case 'message.delivery-failed':
        recorder.count('transferFailures', { [ATTRIBUTES.errorType]: event.error.code });
        return;
      default:
        return;
    }
  };

  const off = driver.on(handle);
  return () => {
    off();
    recorder.close();
    const now = Date.now();
    for (const load of loads.drain()) load.span?.end(now);
    holders.endAll(now);
  };
}
