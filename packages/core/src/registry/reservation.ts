import { Signal } from '../events/signal.js';
import type { HandedRecord } from '../handoff/wire.js';
import type { StoreSnapshot } from '../ports/store.js';
import { handedSnapshot } from '../rules/index.js';
import { NO_REQUESTERS, Requesters } from '../session/requesters.js';

/** A record a holder's reply handed to a load, and when that load first asked for it. */
export interface HandedTake {
  readonly snapshot: StoreSnapshot;
  readonly since: number;
}

/** A load in flight on this server: the key is reserved for it until it settles. */
export class LoadReservation {
  // Made at their first use: most loads find their key free, and nobody replies or asks.
  #reply: Signal | undefined;
  #requesters: Requesters | undefined;
  /**
   * True once this load may leave a lock of its own in the store without holding it: it asked
   * to be handed the lock (a release may write it after the load ended), or an attempt failed
   * after its write may have landed (a lost response). Set by the load's own steps only.
   */
  #mayLeaveLock = false;
  /** The record the holder's reply handed to this load, until its next attempt takes it. */
  #handed: HandedRecord | undefined;
  #handOverAskedAt: number | undefined;
  #lastHandOverAsk: number | undefined;

  constructor(
    /** The lock token this load writes. */
    readonly token: string,
    /** The load's number in this driver's events (`loadId`). */
    readonly loadId: number,
    private readonly wanted: () => boolean,
  ) {}

  /** Woken by the holder's reply, and by a cancel (the player left, the driver closed). */
  get reply(): Signal {
    this.#reply ??= new Signal();
    return this.#reply;
  }

  /** Requests that named this load's lock while it was in flight: answered when it settles. */
  get requesters(): Requesters {
    this.#requesters ??= new Requesters();
    return this.#requesters;
  }

  /** True when `requester` is new and the load's requesters are full (`Requesters.full`). */
  requestersFull(requester: string): boolean {
    return this.#requesters?.full(requester) ?? false;
  }

  /** The requests that came while the load was in flight, taken (see `Requesters.take`). */
  takeRequesters(): ReturnType<Requesters['take']> {
    return this.#requesters?.take() ?? NO_REQUESTERS;
  }

  get mayLeaveLock(): boolean {
    return this.#mayLeaveLock;
  }

  /** This load's lock may be in the store whatever the load ends with (see `mayLeaveLock`). */
  mayHaveLeftLock(): void {
    this.#mayLeaveLock = true;
  }

  /**
   * This load asked, at `at` on this server's clock, to be handed the lock: its lock may be
   * written for it from now on, and never before (a holder writes only a token it was sent).
   */
  askedForHandOver(at: number): void {
    this.#mayLeaveLock = true;
    this.#handOverAskedAt ??= at;
    this.#lastHandOverAsk = at;
  }

  /** When this load last asked to be handed the lock, if it did: a holder honours it for a while. */
  get lastHandOverAsk(): number | undefined {
    return this.#lastHandOverAsk;
  }

  /**
   * The holder replied: `handed`, the record its release wrote, is kept for this load's next
   * attempt when it names this load's token (a reply for another load of the key, or one
   * replayed from an earlier load, is not this load's), and the load wakes. True when kept.
   */
  replied(handed: HandedRecord | undefined): boolean {
    const kept = handed !== undefined && handed.token === this.token;
    if (kept) this.#handed = handed;
    this.reply.notify();
    return kept;
  }

  /**
   * The record a reply handed to this load, once, as a snapshot when its lock is this load's
   * (on server `jobId`): the attempt after the reply starts from it. `since`: this load's first
   * ask for it (the holder's write came after).
   */
  takeHanded(jobId: string): HandedTake | undefined {
    const handed = this.#handed;
    this.#handed = undefined;
    const since = this.#handOverAskedAt;
    if (handed === undefined || since === undefined) return undefined;
    const snapshot = handedSnapshot(handed, { jobId, token: this.token });
    return snapshot && { snapshot, since };
  }

  /** True once the load is no longer wanted. */
  cancelled(): boolean {
    return !this.wanted();
  }
}
