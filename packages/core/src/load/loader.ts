/**
 * A load, from start to settle: the key is checked, the same-server rules run (wait, adopt, or
 * reserve the key), then the lock is taken across servers (`acquisition.ts`), and every event
 * of it is reported (`load.started`, `load.waiting`, `load.loaded` or `load.failed`).
 */
import type { DriverContext } from '../context/context.js';
import { DataDriverError, ErrorCode, rethrow } from '../ports/errors.js';
import type { SessionRegistry } from '../registry/registry.js';
import { LoadReservation } from '../registry/reservation.js';
import { fillDefaults, lacksDefaults } from '../rules/index.js';
import { checkProfileKey } from '../rules/keys.js';
import { ProfileSession } from '../session/profile-session.js';
import { lockLostError } from '../session/session-errors.js';
import type { SessionHooks } from '../session/session-terms.js';
import { abortedError, untilAborted } from './abortable.js';
import { acquire } from './acquisition.js';
import type { Acquired } from './load-attempt.js';
import {
  type HolderHooks,
  type Landed,
  type LandedThen,
  type LoaderSide,
  type LoadHow,
  LoadRun,
  StoreLanding,
} from './load-steps.js';
import { waitOnThisServer } from './local-wait.js';
import { confirmSlowTake, ranSlow } from './slow-take.js';
import { reportTakeover } from './takeover-report.js';

/** The session or the failure as they are, for a caller that goes on from a promise. */
const AS_IS: LandedThen<Landed> = { landed: (landed) => landed, refused: rethrow };

export class Loader implements LoaderSide {
  /** This driver's loads so far: each load's `loadId` in the events. */
  #loads = 0;

  constructor(
    /** Read by each load's own steps (`LoadRun`, `StoreLanding`) too. */
    readonly context: DriverContext,
    readonly registry: SessionRegistry,
    readonly holder: HolderHooks,
    private readonly hooks: SessionHooks<ProfileSession>,
  ) {}

  /**
   * A promise chain, not async functions: a load that finds its key free is one store call and
   * a promise for each step that waits on it, not two for every layer.
   */
  load(key: string, how: LoadHow): Promise<ProfileSession> {
    return this.loadAs(key, how, (session) => session);
  }

  /** The load, resolving with what `as` makes of its session (as the load's own last step). */
  loadAs<R>(key: string, how: LoadHow, as: (session: ProfileSession) => R): Promise<R> {
    const { context, registry } = this;
    const started = context.scheduler.now();
    this.#loads += 1;
    const loadId = this.#loads;
    // The event is made only when someone hears it (most servers: nobody).
    if (context.events.listening('load.started')) {
      context.emit({ type: 'load.started', key, loadId, session: how.player !== undefined });
    }
    const run = new LoadRun(this, key, how, loadId, started, as);
    try {
      // Reported as load.failed like any refusal: a host waiting on a player's load hears.
      if (registry.closed) throw new DataDriverError(ErrorCode.Closed, `${context.name} is closed`);
      context.identity.use();
      context.link.checkAttached();
      checkProfileKey(key); // inside: a refused key is reported as load.failed, like any other
      const { signal } = how;
      if (signal?.aborted) throw abortedError(key, signal); // before any store call
      const reservation = new LoadReservation(context.createId(), loadId, run.wanted);
      run.reservation = reservation;
      const waiting = waitOnThisServer(context, registry, key, how, loadId, run, started);
      if (waiting === undefined && !signal) {
        // The common case: its last steps run in the store attempt's callback, no promise each.
        return this.fromStore(key, how, reservation, started, run);
      }
      const work: Promise<Landed> =
        waiting === undefined
          ? this.fromStore(key, how, reservation, started, AS_IS) // this turn: no time has passed
          : waiting.then((adopted): Landed | Promise<Landed> =>
              adopted
                ? { session: adopted, reason: 'adopted' as const }
                : this.fromStore(key, how, reservation, undefined, AS_IS),
            );
      const loaded = signal
        ? untilAborted(work, signal, key, {
            onAbort: () => reservation.reply.notify(), // a parked wait wakes and finds it unwanted
            giveBack: ({ session }) => void session.release('aborted').catch(() => undefined),
          })
        : work;
      return loaded.then(
        (landed) => run.landed(landed),
        (error: unknown) => run.refused(error),
      );
    } catch (error) {
      return Promise.reject(run.failure(error));
    }
  }

  /**
   * Loads from the store under `reservation`, which the local wait has already put in place,
   * resolving with what `then.landed` makes of the session, or `then.refused` of any failure
   * (a throw of `landed` rejects as it is). Once the load has settled, its reservation ends and
   * the requests that came during it are answered, in the same turn as a load that lands at
   * once hands its session on.
   */
  private fromStore<R>(
    key: string,
    how: LoadHow,
    reservation: LoadReservation,
    /** The clock's reading now, when the caller has it. */
    now: number | undefined,
    then: LandedThen<R>,
  ): Promise<R> {
    const landing = new StoreLanding(this, key, how, reservation, then);
    try {
      const released = this.registry.takeReleased(key, now);
      return acquire(this.context, key, reservation, landing.heldHere, released, now, landing);
    } catch (error) {
      return Promise.resolve().then(() => landing.failed(error));
    }
  }

  /** Ends `reservation` and answers the requests that came during it. */
  settle(key: string, reservation: LoadReservation): void {
    this.registry.settle(key, reservation);
    for (const [requester, { token, handTo }] of reservation.takeRequesters()) {
      this.holder.receive(key, requester, token, undefined, handTo);
    }
  }

  /** The session of a take: held here, reported, its messages applied, and a slow take confirmed. */
  land(
    key: string,
    how: LoadHow,
    reservation: LoadReservation,
    acquired: Acquired,
  ): Landed | Promise<Landed> {
    const { context, registry } = this;
    const { record } = acquired;
    // While the load is in progress (until `landed()`), a write that finds the lock taken
    // ends the session without the lost-lock kick: the load fails instead, and its player is
    // kicked once, as for any failed load. The game never sees a profile already lost.
    const session = new ProfileSession(context, this.hooks, {
      key,
      storeKey: acquired.storeKey,
      token: reservation.token,
      data: fillDefaults(record.data, context.settings.defaults),
      filledDefaults: lacksDefaults(record.data, context.settings.defaults),
      userIds: record.meta.userIds,
      messages: record.meta.messages,
      player: how.player,
      version: record.meta.version,
      stored: acquired.snapshot,
      dataJson: acquired.dataJson,
    });
    registry.hold(session);
    if (registry.closed) {
      // The driver closed while this load was landing: give the lock straight back.
      const closed = new DataDriverError(
        ErrorCode.Closed,
        `${context.name} closed while ${key} was loading`,
      );
      // A failed release is reported as profile.release-failed.
      return session.release('shutdown').then(
        () => Promise.reject(closed),
        () => Promise.reject(closed),
      );
    }
    reportTakeover(context, key, reservation.loadId, acquired);
    // Messages sent while it was away apply now, before the game sees the profile (onLoad).
    // Without an `onMessage` a pass does nothing (`SessionIo.pass`): none is made at all.
    if (how.messages !== false && context.messageHandlers.current !== undefined) {
      return session.pass('load').then(
        () => this.confirmed(session, reservation, acquired, undefined),
        // Any other failure of the pass leaves the messages for a later pass.
        (error: unknown) => this.confirmed(session, reservation, acquired, error),
      );
    }
    return this.confirmed(session, reservation, acquired, undefined);
  }

  /**
   * The session handed to the game, unless a message pass (`passFailure`) lost it. Only a load
   * that ran slow awaits the confirmation of its take: the common case stays in this turn.
   */
  private confirmed(
    session: ProfileSession,
    reservation: LoadReservation,
    acquired: Acquired,
    passFailure: unknown,
  ): Landed | Promise<Landed> {
    const { key } = session;
    if (!session.active) throw passFailure ?? lockLostError(key, undefined);
    if (!ranSlow(this.context, acquired.takenAt)) return handedOn(session, acquired);
    return confirmSlowTake(this.context, key, reservation.token).then((take) => {
      if (!take.held) throw session.lostTo(take.holder);
      return handedOn(session, acquired);
    });
  }
}

/** The session handed to the game: a lost lock now kicks its player (`ProfileSession.landed`). */
function handedOn(session: ProfileSession, acquired: Acquired): Landed {
  session.landed();
  return { session, reason: acquired.reason };
}
