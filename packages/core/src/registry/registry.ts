/**
 * The server-local state of one driver, with one owner: the sessions it holds or retains by
 * key, the loads in flight (one reservation per key), the snapshots of records it released
 * (`released-snapshots.ts`), the signal same-server waits park on, and whether the driver is
 * closed. Nothing else writes these; each change has a name.
 */

import { Signal } from '../events/signal.js';
import type { HandedRecord } from '../handoff/wire.js';
import { ChurnMap } from '../ports/churn-map.js';
import type { Scheduler } from '../ports/scheduler.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { ProfileSession } from '../session/profile-session.js';
import { type Released, ReleasedSnapshots } from './released-snapshots.js';
import type { LoadReservation } from './reservation.js';
import { TokensByKey } from './tokens-here.js';

/**
 * The lock tokens every driver in this process holds or is loading under, by key. A lock of
 * this server's id is orphaned (a lost response, free to take) only when no driver here holds
 * its token for that key: a second driver of one name and jobId through another store object
 * over the same backend (two `RedisStore`s over one Redis) would otherwise take the first's
 * locks. Tokens are random per load, so drivers over other backends never match, and a lock
 * copied to another key (a record copied whole) is that key's orphan.
 */
const TOKENS_HERE = new TokensByKey();

/**
 * A lock a load here may have left in the store: its key, its token, and when the load last
 * asked to be handed the lock (a holder may still write it for a while after).
 */
export interface LeftLock {
  readonly key: string;
  readonly token: string;
  readonly askedAt: number | undefined;
}

/** The most loads whose lock may be left in the store a driver remembers for its close (newest). */
const MAX_LEFT_LOCKS = 1024;

export class SessionRegistry {
  // Sessions and loads come and go by the thousand: a `ChurnMap` keeps none alive once gone.
  readonly #sessions = new ChurnMap<string, ProfileSession>();
  readonly #loads = new ChurnMap<string, LoadReservation>();
  readonly #changed = new Signal();
  readonly #released: ReleasedSnapshots;
  /** Each load here that ended without holding a lock it may have left, by its token. */
  readonly #leftLocks = new Map<string, LeftLock>();
  #closed = false;
  #ended = false;

  constructor(now: () => number) {
    this.#released = new ReleasedSnapshots(now);
  }

  /** True once the driver closed: loads in flight are cancelled, new ones refused. */
  get closed(): boolean {
    return this.#closed;
  }

  /** True once `close()` has resolved: work still retrying (a trade's decision) gives up. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The close has finished (its deadline passed or every profile was released). */
  end(): void {
    this.#ended = true;
    this.changed(); // a close's wait (for a hand-over's window) ends with it
  }

  /** Profiles held or loading here (each adds to this server's publish budget). */
  get count(): number {
    return this.#sessions.size + this.#loads.size;
  }

  /** The session of `key` here (active, leaving, retained), if any. */
  session(key: string): ProfileSession | undefined {
    return this.#sessions.get(key);
  }

  /** The load of `key` in flight here, if any. */
  reservation(key: string): LoadReservation | undefined {
    return this.#loads.get(key);
  }

  sessions(): ProfileSession[] {
    return this.#sessions.valueList();
  }

  /**
   * The snapshot of `key` a session here last released (and its JSON), if fresh at `now` (the
   * clock's reading, when the caller has it): once only.
   */
  takeReleased(key: string, now?: number): Released | undefined {
    return this.#released.take(key, now);
  }

  /** True when a driver in this process holds, or is loading under, `key`'s lock with `token`. */
  holdsToken(token: string, key: string): boolean {
    return TOKENS_HERE.has(key, token);
  }

  /**
   * Reserves `key` for a load, in the same tick as the check that found it free: a second load
   * started meanwhile sees this one and waits for it, rather than racing it to the store.
   */
  reserve(key: string, reservation: LoadReservation): void {
    if (!this.#loads.add(key, reservation)) throw new Error(`${key} is already reserved by a load`);
    TOKENS_HERE.add(key, reservation.token);
  }

  /** A load took the lock: its session holds the key from now on. */
  hold(session: ProfileSession): void {
    this.#sessions.set(session.key, session);
    TOKENS_HERE.add(session.key, session.token);
  }

  /** The load under `reservation` settled (loaded or not): the key is no longer reserved. */
  settle(key: string, reservation: LoadReservation): void {
    this.#loads.deleteIfIs(key, reservation);
    if (this.#sessions.get(key)?.token !== reservation.token) {
      TOKENS_HERE.delete(key, reservation.token);
      if (reservation.mayLeaveLock) this.#noteLeftLock(key, reservation);
    }
    this.changed();
  }

  /** Loads in flight here. */
  get loading(): number {
    return this.#loads.size;
  }

  /**
   * The key and token of each load here that ended without holding a lock it may have left in
   * the store, given once: the driver's close clears them. Several loads of one key are each
   * given (an earlier one's lock may be the one left); a later load that holds the key writes
   * its own token, so clearing an earlier one's finds nothing to clear.
   */
  takeLeftLocks(): LeftLock[] {
    const left = [...this.#leftLocks.values()];
    this.#leftLocks.clear();
    return left;
  }

  #noteLeftLock(key: string, { token, lastHandOverAsk }: LoadReservation): void {
    this.#leftLocks.set(token, { key, token, askedAt: lastHandOverAsk });
    if (this.#leftLocks.size <= MAX_LEFT_LOCKS) return;
    const oldest = this.#leftLocks.keys().next().value; // a Map iterates in insertion order
    if (oldest !== undefined) this.#leftLocks.delete(oldest);
  }

  /**
   * `session` stopped holding its lock (released, erased, or lost to another server); a
   * release leaves its snapshot for the key's next load here, anything else forgets the key's.
   */
  forget(session: ProfileSession, released?: StoreSnapshot): void {
    this.#sessions.deleteIfIs(session.key, session);
    // Nothing is kept once the driver closed: no load will use it.
    const kept = this.#closed ? undefined : released;
    // The data's JSON goes with it only when the release's own write stored that JSON.
    const { json, parsed } = session.lastWritten;
    this.#released.keep(session.key, kept, json.length, parsed ? json : undefined);
    TOKENS_HERE.delete(session.key, session.token);
    this.changed();
  }

  /** A session's write settled or its state changed: same-server waits re-check. */
  changed(): void {
    this.#changed.notify();
  }

  /** Parks a same-server wait until something changes here, or `timeoutMs` passes. */
  waitForChange(scheduler: Scheduler, timeoutMs: number): Promise<boolean> {
    return this.#changed.wait(scheduler, timeoutMs);
  }

  /** Wakes the load of `key` (its holder replied, or its player left). */
  wakeLoad(key: string): void {
    this.#loads.get(key)?.reply.notify();
  }

  /**
   * The holder of `key` replied, with the record it handed to a load here, if any: true when
   * the load in flight kept it (it names that load's token).
   */
  replied(key: string, handed: HandedRecord | undefined): boolean {
    return this.#loads.get(key)?.replied(handed) ?? false;
  }

  /** The driver closes: every load in flight wakes and finds itself cancelled. */
  close(): void {
    this.#closed = true;
    this.#released.clear();
    for (const reservation of this.#loads.valueList()) reservation.reply.notify();
  }
}
