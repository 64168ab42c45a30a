/**
 * One server's presence beat on one presence backend: at most one write in flight. A beat
 * that comes due while the last one has not settled is not sent (a hung backend would
 * otherwise collect a call every beat); it is reported as a failed beat instead, so the
 * warning ("the first failure after a success") comes once, and in order.
 */

import type { EventPayload } from '../events/events.js';
import { retryOnce } from '../events/signal.js';
import { DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { Presence } from '../ports/presence.js';
import type { Scheduler } from '../ports/scheduler.js';
import type { HandoffTimings } from './timings.js';

export class PresenceBeat {
  #inFlight: Promise<void> | undefined;
  #sentAt = 0;
  #healthy = true;

  constructor(
    readonly presence: Presence,
    private readonly jobId: string,
    private readonly timings: HandoffTimings,
    private readonly scheduler: () => Scheduler,
    private readonly report: (event: EventPayload) => void,
  ) {}

  /** Writes a beat, or, while one is in flight, reports it unsettled and waits for it. */
  beat(): Promise<void> {
    if (this.#inFlight) {
      this.failed(this.unsettled());
      return this.#inFlight;
    }
    this.#sentAt = this.scheduler().now();
    const beat = this.write().finally(() => {
      this.#inFlight = undefined;
    });
    this.#inFlight = beat;
    return beat;
  }

  private async write(): Promise<void> {
    const scheduler = this.scheduler();
    try {
      await retryOnce(scheduler, this.timings.presenceRetrySeconds * 1000, () =>
        this.presence.set(this.jobId, '1', this.timings.presenceTtlSeconds),
      );
      this.#healthy = true;
      this.report({ type: 'presence.beat' });
    } catch (error) {
      this.failed(toDataDriverError(error, ErrorCode.BackendFailed, 'presence beat failed'));
    }
  }

  /** The first failure after a success warns (`first`). */
  private failed(error: DataDriverError): void {
    this.report({ type: 'presence.beat-failed', error, first: this.#healthy });
    this.#healthy = false;
  }

  private unsettled(): DataDriverError {
    const ms = this.scheduler().now() - this.#sentAt;
    return new DataDriverError(
      ErrorCode.BackendFailed,
      `presence beat failed: the beat sent ${ms} ms ago has not settled, so no other is sent until it does`,
    );
  }
}
