/**
 * A load, from start to settle: the key is checked, the same-server rules run (wait, adopt, or
 * reserve the key), then the lock is taken across servers (`acquisition.ts`), and every event
 * of it is reported (`load.started`, `load.waiting`, `load.loaded` or `load.failed`).
 */
import type { DriverContext } from '../context/context.js';
import type { KickCause } from '../events/events.js';
import { DataDriverError, ErrorCode, rethrow, toDataDriverError } from '../ports/errors.js';
import type { SessionRegistry } from '../registry/registry.js';
import { LoadReservation } from '../registry/reservation.js';
import { fillDefaults, lacksDefaults, type TakeReason } from '../rules/index.js';
import { checkProfileKey } from '../rules/keys.js';
import { ProfileSession } from '../session/profile-session.js';
import { lockLostError } from '../session/session-errors.js';
import type { SessionHooks } from '../session/session-terms.js';
import { type AbortSignalLike, abortedError, untilAborted } from './abortable.js';
import { acquire } from './acquisition.js';
import type { Acquired } from './load-attempt.js';
import { type LocalWaitHow, waitOnThisServer } from './local-wait.js';
import { confirmSlowTake, ranSlow } from './slow-take.js';
import { reportTakeover } from './takeover-report.js';

export interface LoadHow extends LocalWaitHow {
  /** True once the load is no longer wanted (the player left). */
  readonly cancelled: () => boolean;
  /** False: no message pass at this load (a restore's, whose write would undo its effect). */
  readonly messages?: boolean;
  /** The caller's abort (`load(key, { signal })`): `Data.Aborted` at once, no lock left taken. */
  readonly signal?: AbortSignalLike | undefined;
}

/** What a load asks of this server's holder side (`holder/`), handed in at assembly. */
export interface HolderHooks {
  /** Ends a player's session here (an older connection of the player who loads again). */
  kick(session: ProfileSession, message: string, cause: KickCause): void;
  /** Answers a release request that came while the load was in flight (`handTo`: see `Asked`). */
  receive(
    key: string,
    requester: string,
    token: string | undefined,
    reason: undefined,
    handTo: string | undefined,
  ): void;
}

/** A load's session, and how it came: taken from the store, or a retained profile adopted. */
interface Landed {
  readonly session: ProfileSession;
  readonly reason: TakeReason | 'adopted';
}

/** What a load makes of its session, and of its failure (`fromStore`). */
interface LandedThen<R> {
  readonly landed: (landed: Landed) => R;
  readonly refused: (error: unknown) => R;
}

/** The session or the failure as they are, for a caller that goes on from a promise. */
const AS_IS: LandedThen<Landed> = { landed: (landed) => landed, refused: rethrow };

export class Loader {
  /** This driver's loads so far: each load's `loadId` in the events. */
  #loads = 0;

  constructor(
    private readonly context: DriverContext,
    private readonly registry: SessionRegistry,
    private readonly holder: HolderHooks,
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
    const failed = (error: unknown): DataDriverError => {
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, `load of ${key} failed`);
      const waitedMs = context.scheduler.now() - started;
      context.emit({ type: 'load.failed', key, loadId, waitedMs, error: failure });
      return failure;
    };
    try {
      // Reported as load.failed like any refusal: a host waiting on a player's load hears.
      if (registry.closed) throw new DataDriverError(ErrorCode.Closed, `${context.name} is closed`);
      context.identity.use();
      context.link.checkAttached();
      checkProfileKey(key); // inside: a refused key is reported as load.failed, like any other
      const { signal } = how;
      if (signal?.aborted) throw abortedError(key, signal); // before any store call
      const reservation = new LoadReservation(
        context.createId(),
        loadId,
        () => !how.cancelled() && !registry.closed && signal?.aborted !== true,
      );
      const reserve = () => registry.reserve(key, reservation);
      const replace = (older: ProfileSession) =>
        this.holder.kick(older, context.settings.kickMessages.rejoined, 'rejoined');
      const waiting = waitOnThisServer(
        context,
        registry,
        key,
        how,
        loadId,
        reserve,
        replace,
        started,
      );
      const landed = ({ session, reason }: Landed): R => {
        // The clock is read for the event only when someone hears it (most servers: nobody).
        if (context.events.listening('load.loaded')) {
          const waitedMs = context.scheduler.now() - started;
          context.emit({ type: 'load.loaded', key, loadId, reason, waitedMs });
        }
        return as(session);
      };
      const refused = (error: unknown): never => {
        throw failed(error);
      };
      if (waiting === undefined && !signal) {
        // The common case: its last steps run in the store attempt's callback, no promise each.
        return this.fromStore(key, how, reservation, started, { landed, refused });
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
      return loaded.then(landed, refused);
    } catch (error) {
      return Promise.reject(failed(error));
    }
  }

  /**
   * Loads from the store under `reservation`, which the local wait has already put in place,
   * resolving with what `landed` makes of the session, or `refused` of any failure (a throw
   * of `landed` rejects as it is). Once the load has settled, its reservation ends and the
   * requests that came during it are answered, in the same turn as a load that lands at once
   * hands its session on.
   */
  private fromStore<R>(
    key: string,
    how: LoadHow,
    reservation: LoadReservation,
    /** The clock's reading now, when the caller has it. */
    now: number | undefined,
    { landed, refused }: LandedThen<R>,
  ): Promise<R> {
    const { context, registry } = this;
    const settle = (): void => {
      registry.settle(key, reservation);
      for (const [requester, { token, handTo }] of reservation.takeRequesters()) {
        this.holder.receive(key, requester, token, undefined, handTo);
      }
    };
    /** `settle`, then `next`; a throw of `settle` (a host's kick) fails the load instead. */
    const settledThen = (next: () => R | Promise<R>): R | Promise<R> => {
      try {
        settle();
      } catch (error) {
        return refused(error);
      }
      return next();
    };
    const taken = (acquired: Acquired): R | Promise<R> => {
      let landing: Landed | Promise<Landed>;
      try {
        landing = this.land(key, how, reservation, acquired);
      } catch (error) {
        return settledThen(() => refused(error));
      }
      // A landing in this turn settles now; one still going, once it ends.
      if (landing instanceof Promise) return landing.finally(settle).then(landed, refused);
      const session = landing;
      return settledThen(() => landed(session));
    };
    const failed = (error: unknown) => settledThen(() => refused(error));
    try {
      const heldHere = (token: string) => registry.holdsToken(token, key);
      const released = registry.takeReleased(key, now);
      return acquire(context, key, reservation, heldHere, released, now, { taken, failed });
    } catch (error) {
      return Promise.resolve().then(() => failed(error));
    }
  }

  /** The session of a take: held here, reported, its messages applied, and a slow take confirmed. */
  private land(
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
      userIds: record.meta.userIds ?? [],
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
    const landed = (): Landed => {
      session.landed();
      return { session, reason: acquired.reason };
    };
    if (!ranSlow(this.context, acquired.takenAt)) return landed();
    return confirmSlowTake(this.context, key, reservation.token).then((take) => {
      if (!take.held) throw session.lostTo(take.holder);
      return landed();
    });
  }
}
