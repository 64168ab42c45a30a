/** The instruments of one driver, and the one place each is recorded. */
import type {
  Attributes,
  Counter,
  Histogram,
  Meter,
  ObservableGauge,
  ObservableResult,
} from '@opentelemetry/api';
import { ATTRIBUTES, DURATION_BUCKETS, METRICS } from './names.js';

const seconds = (ms: number) => ms / 1000;

export class DriverMetrics {
  private readonly loadDuration: Histogram;
  private readonly releaseDuration: Histogram;
  private readonly counters: Record<
    | 'kicks'
    | 'takeovers'
    | 'lockLosses'
    | 'saveFailures'
    | 'releaseFailures'
    | 'requestsSent'
    | 'requestsReceived'
    | 'presenceReads'
    | 'tradeRecoveries'
    | 'messagesSent'
    | 'messagesApplied'
    | 'messageDuplicates'
    | 'messageFailures'
    | 'inboxFailures'
    | 'transfersDelivered'
    | 'transferFailures',
    Counter
  >;
  private readonly active: ObservableGauge;
  private readonly observe: (result: ObservableResult) => void;
  private readonly health: ObservableGauge;
  private readonly observeHealth: (result: ObservableResult) => void;

  constructor(
    meter: Meter,
    private readonly driver: string,
    activeCount: () => number,
    /** 1 while the driver's health is critical, 0 when ok; `undefined`: a core without it. */
    critical: () => number | undefined,
  ) {
    const histogram = (name: string, description: string) =>
      meter.createHistogram(name, {
        description,
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    this.loadDuration = histogram(
      METRICS.loadDuration,
      "From a load's start to its profile loaded or its failure, waits for another server's lock included",
    );
    this.releaseDuration = histogram(
      METRICS.releaseDuration,
      "From a release's start (the player leaving) to the lock cleared, retries included",
    );
    const counter = (name: string, description: string, unit: string) =>
      meter.createCounter(name, { description, unit });
    this.counters = {
      kicks: counter(METRICS.kicks, 'Players removed by the driver', '{kick}'),
      takeovers: counter(METRICS.takeovers, 'Locks taken from another server', '{takeover}'),
      lockLosses: counter(METRICS.lockLosses, 'Saves that found the lock taken', '{loss}'),
      saveFailures: counter(
        METRICS.saveFailures,
        'Saves that failed; the data is kept',
        '{failure}',
      ),
      releaseFailures: counter(
        METRICS.releaseFailures,
        'Releases that failed; the profile is retained',
        '{failure}',
      ),
      requestsSent: counter(
        METRICS.requestsSent,
        'Hand-over requests sent to a holder',
        '{request}',
      ),
      requestsReceived: counter(
        METRICS.requestsReceived,
        'Hand-over requests received',
        '{request}',
      ),
      presenceReads: counter(METRICS.presenceReads, "Presence reads of a lock's holder", '{read}'),
      tradeRecoveries: counter(
        METRICS.tradeRecoveries,
        'Trades settled from their journal by a load',
        '{trade}',
      ),
      messagesSent: counter(METRICS.messagesSent, 'Messages sent to a profile', '{message}'),
      messagesApplied: counter(
        METRICS.messagesApplied,
        'Messages applied, once their write is known committed',
        '{message}',
      ),
      messageDuplicates: counter(
        METRICS.messageDuplicates,
        'Pending messages found applied already: trimmed, not applied again',
        '{message}',
      ),
      messageFailures: counter(
        METRICS.messageFailures,
        'Tries of onMessage that failed; the message stays pending',
        '{failure}',
      ),
      inboxFailures: counter(
        METRICS.inboxFailures,
        'Inbox reads and trims that failed; a later pass does them',
        '{failure}',
      ),
      transfersDelivered: counter(
        METRICS.transfersDelivered,
        "Transfers delivered to the recipient's inbox",
        '{message}',
      ),
      transferFailures: counter(
        METRICS.transferFailures,
        'Transfer deliveries that failed; the transfer stays in the outbox',
        '{failure}',
      ),
    };
    this.active = meter.createObservableGauge(METRICS.activeProfiles, {
      description: 'Profiles active on this server',
      unit: '{profile}',
    });
    this.observe = (result) => result.observe(activeCount(), this.attributes());
    this.active.addCallback(this.observe);
    this.health = meter.createObservableGauge(METRICS.healthCritical, {
      description:
        "1 while the driver's store health is critical (a run of store failures), else 0",
      unit: '1',
    });
    this.observeHealth = (result) => {
      const value = critical();
      if (value !== undefined) result.observe(value, this.attributes());
    };
    this.health.addCallback(this.observeHealth);
  }

  loaded(ms: number, attributes: Attributes): void {
    this.loadDuration.record(seconds(ms), this.attributes(attributes));
  }

  released(ms: number): void {
    this.releaseDuration.record(seconds(ms), this.attributes());
  }

  count(counter: keyof DriverMetrics['counters'], attributes: Attributes = {}, by = 1): void {
    this.counters[counter].add(by, this.attributes(attributes));
  }

  /** Stops observing the gauges (the instruments themselves belong to the meter). */
  close(): void {
    this.active.removeCallback(this.observe);
    this.health.removeCallback(this.observeHealth);
  }

  private attributes(extra: Attributes = {}): Attributes {
    return { [ATTRIBUTES.driver]: this.driver, ...extra };
  }
}
