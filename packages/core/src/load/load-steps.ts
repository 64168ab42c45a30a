/**
 * A load's own steps, as the loader runs them: what it was asked (`LoadHow`), whether it is
 * still wanted, the key reserved, how it ends (`load.loaded` or `load.failed`), and what a
 * load from the store does once its lock is taken. One object each, not closures per load.
 */
import type { DriverContext } from '../context/context.js';
import type { KickCause } from '../events/events.js';
import { type DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { SessionRegistry } from '../registry/registry.js';
import type { LoadReservation } from '../registry/reservation.js';
import type { TakeReason } from '../rules/index.js';
import type { ProfileSession } from '../session/profile-session.js';
import type { AbortSignalLike } from './abortable.js';
import type { AcquiredThen } from './acquisition.js';
import type { Acquired } from './load-attempt.js';
import type { LocalWaitHow, LocalWaitSteps } from './local-wait.js';

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
export interface Landed {
  readonly session: ProfileSession;
  readonly reason: TakeReason | 'adopted';
}

/**
 * What a load makes of its session, and of its failure (`fromStore`). Called as methods
 * (`then.landed(...)`): a `LoadRun`'s are on its prototype, so never take them off it unbound.
 */
export interface LandedThen<R> {
  landed(landed: Landed): R;
  refused(error: unknown): R;
}

/** What a load's steps use of their loader (`Loader`). */
export interface LoaderSide {
  readonly context: DriverContext;
  readonly registry: SessionRegistry;
  readonly holder: HolderHooks;
  /** The session of a take, or the promise of it while a message pass or a slow take runs. */
  land(
    key: string,
    how: LoadHow,
    reservation: LoadReservation,
    acquired: Acquired,
  ): Landed | Promise<Landed>;
  /** Ends `reservation` and answers the requests that came during it. */
  settle(key: string, reservation: LoadReservation): void;
}

/**
 * A load's own steps, as the loader hands them on: whether it is still wanted, the key reserved
 * and an older connection replaced (`waitOnThisServer`), and how it ends (`load.loaded` with
 * what `as` makes of its session, or `load.failed`). One object a load, not closures.
 */
export class LoadRun<R> implements LandedThen<R>, LocalWaitSteps {
  /** Set once the key is checked: the load's hold on it. */
  reservation: LoadReservation | undefined;

  constructor(
    private readonly loader: LoaderSide,
    private readonly key: string,
    private readonly how: LoadHow,
    private readonly loadId: number,
    private readonly started: number,
    private readonly as: (session: ProfileSession) => R,
  ) {}

  /** False once the player left, the driver closed or the caller aborted. */
  readonly wanted = (): boolean =>
    !this.how.cancelled() && !this.loader.registry.closed && this.how.signal?.aborted !== true;

  reserve(): void {
    this.loader.registry.reserve(this.key, this.reservation!);
  }

  replace(older: ProfileSession): void {
    const { holder, context } = this.loader;
    holder.kick(older, context.settings.kickMessages.rejoined, 'rejoined');
  }

  landed({ session, reason }: Landed): R {
    const { context } = this.loader;
    // The clock is read for the event only when someone hears it (most servers: nobody).
    if (context.events.listening('load.loaded')) {
      const { key, loadId } = this;
      const waitedMs = context.scheduler.now() - this.started;
      context.emit({ type: 'load.loaded', key, loadId, reason, waitedMs });
    }
    return this.as(session);
  }

  refused(error: unknown): never {
    throw this.failure(error);
  }

  /** `error` as the load's failure, reported as `load.failed`. */
  failure(error: unknown): DataDriverError {
    const { context } = this.loader;
    const { key, loadId } = this;
    const failure = toDataDriverError(error, ErrorCode.BackendFailed, `load of ${key} failed`);
    const waitedMs = context.scheduler.now() - this.started;
    context.emit({ type: 'load.failed', key, loadId, waitedMs, error: failure });
    return failure;
  }
}

/**
 * What a load from the store does once its lock is taken or its attempt failed: the session
 * landed, the reservation settled and its requests answered, then `then`. One object a load
 * from the store, not closures: its steps are methods, and only `heldHere`, which the lock
 * rules call unbound, is a field.
 */
export class StoreLanding<R> implements AcquiredThen<R> {
  constructor(
    private readonly loader: LoaderSide,
    private readonly key: string,
    private readonly how: LoadHow,
    private readonly reservation: LoadReservation,
    private readonly then: LandedThen<R>,
  ) {}

  /** True when a profile here still holds a lock with `token`. */
  readonly heldHere = (token: string): boolean => this.loader.registry.holdsToken(token, this.key);

  taken(acquired: Acquired): R | Promise<R> {
    const { loader, key, reservation, then } = this;
    let landing: Landed | Promise<Landed>;
    try {
      landing = loader.land(key, this.how, reservation, acquired);
    } catch (error) {
      return this.failed(error);
    }
    // A landing in this turn settles now; one still going, once it ends.
    if (landing instanceof Promise) {
      return landing
        .finally(() => loader.settle(key, reservation))
        .then(
          (landed) => then.landed(landed),
          (error: unknown) => then.refused(error),
        );
    }
    try {
      loader.settle(key, reservation);
    } catch (error) {
      return then.refused(error); // a throw of the settle (a host's kick) fails the load
    }
    return then.landed(landing);
  }

  failed(error: unknown): R | Promise<R> {
    try {
      this.loader.settle(this.key, this.reservation);
    } catch (settleError) {
      return this.then.refused(settleError);
    }
    return this.then.refused(error);
  }
}
