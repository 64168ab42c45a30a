import { Signal } from '../events/signal.js';
import { Requesters } from '../session/requesters.js';

/** A load in flight on this server: the key is reserved for it until it settles. */
export class LoadReservation {
  /** Woken by the holder's reply, and by a cancel (the player left, the driver closed). */
  readonly reply = new Signal();
  /** Requests that named this load's lock while it was in flight: answered when it settles. */
  readonly requesters = new Requesters();
  /**
   * True once this load may leave a lock of its own in the store without holding it: it asked
   * to be handed the lock (a release may write it after the load ended), or an attempt failed
   * after its write may have landed (a lost response). Set by the load's own steps only.
   */
  #mayLeaveLock = false;

  constructor(
    /** The lock token this load writes. */
    readonly token: string,
    /** The load's number in this driver's events (`loadId`). */
    readonly loadId: number,
    private readonly wanted: () => boolean,
  ) {}

  get mayLeaveLock(): boolean {
    return this.#mayLeaveLock;
  }

  /** This load's lock may be in the store whatever the load ends with (see `mayLeaveLock`). */
  mayHaveLeftLock(): void {
    this.#mayLeaveLock = true;
  }

  /** True once the load is no longer wanted. */
  cancelled(): boolean {
    return !this.wanted();
  }
}
