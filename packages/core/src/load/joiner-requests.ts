/**
 * The release requests of one waiting load (the seed: "it publishes a request and repeats it
 * every 4 s while it waits"): a new holder is asked at once, then every
 * `requestRepeatSeconds` on a timer of its own (0, 4, 8, 12 s), whatever the load's attempts
 * and parks do, until the load ends or finds another holder.
 */
import type { DriverContext } from '../context/context.js';
import { DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { ScheduledTask } from '../ports/scheduler.js';
import type { LoadReservation } from '../registry/reservation.js';
import type { LockInfo } from '../rules/index.js';

export class JoinerRequests {
  #asked: LockInfo | undefined;
  #repeat: ScheduledTask | undefined;
  private readonly loadId: number;
  /** This load's token when it asks to be handed the lock (`handOverLocks`). */
  readonly #handTo: string | undefined;

  constructor(
    private readonly context: DriverContext,
    private readonly key: string,
    private readonly load: LoadReservation,
  ) {
    this.loadId = load.loadId;
    // Only a server that beats presence asks: the lock handed to it carries the flag.
    const { settings, link } = context;
    this.#handTo = settings.handOverLocks && link.beatsPresence ? load.token : undefined;
  }

  /**
   * The load found `holder`'s lock: a new holder (or lock) is asked now, then repeatedly. Never
   * awaited: the publish runs beside the load's wait, which it must not hold up.
   */
  ask(holder: LockInfo): void {
    const { handoff, timings } = this.context.link;
    if (!handoff) return;
    const asked = this.#asked;
    if (asked && asked.jobId === holder.jobId && asked.token === holder.token) return;
    this.stop();
    this.#asked = holder;
    this.#repeat = this.context.scheduler.repeat(timings.requestRepeatSeconds * 1000, () => {
      void this.#send(holder);
    });
    void this.#send(holder);
  }

  /** The load ended: no more requests. */
  stop(): void {
    this.#repeat?.cancel();
    this.#repeat = undefined;
  }

  async #send(holder: LockInfo): Promise<void> {
    const { handoff } = this.context.link;
    if (!handoff) return;
    // A holder's release may write this load's lock from now on, even after the load ended.
    if (this.#handTo !== undefined) this.load.askedForHandOver(this.context.scheduler.now());
    this.context.emit({
      type: 'handoff.request.sent',
      key: this.key,
      loadId: this.loadId,
      holder: holder.jobId,
      token: holder.token,
    });
    // A lost request costs only time: the wait repeats it and reads presence meanwhile.
    try {
      await handoff.request(this.context.name, this.key, holder.jobId, holder.token, this.#handTo);
      this.context.link.requestSent();
    } catch (error) {
      // Throttled already warned, as handoff.limited.
      if (DataDriverError.is(error, ErrorCode.Throttled)) return;
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, 'release request failed');
      this.context.emit({
        type: 'handoff.request.failed',
        key: this.key,
        loadId: this.loadId,
        holder: holder.jobId,
        error: failure,
        first: this.context.link.requestFailed(),
      });
    }
  }
}
