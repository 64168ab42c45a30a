/**
 * A load, from start to settle: the key is checked, the same-server rules run (wait, adopt, or
 * reserve the key), then the lock is taken across servers (`acquisition.ts`), and every event
 * of it is reported (`load.started`, `load.waiting`, `load.loaded` or `load.failed`).
 */
import type { DriverContext } from '../context/context.js';
import type { KickCause } from '../events/events.js';
import { DataDriverError, describeError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { SessionRegistry } from '../registry/registry.js';
import { LoadReservation } from '../registry/reservation.js';
import { fillDefaults, lacksDefaults, type TakeReason } from '../rules/index.js';
import { checkProfileKey } from '../rules/keys.js';
import { ProfileSession } from '../session/profile-session.js';
import { lockLostError } from '../session/session-errors.js';
import type { SessionHooks } from '../session/session-terms.js';
import { forgetParticipant } from '../trade/journal.js';
import { type AbortSignalLike, abortedError, untilAborted } from './abortable.js';
import { acquire } from './acquisition.js';
import type { Acquired } from './load-attempt.js';
import { type LocalWaitHow, waitOnThisServer } from './local-wait.js';
import { confirmSlowTake, ranSlow } from './slow-take.js';

export interface LoadHow extends LocalWaitHow {
  /** True once the load is no longer wanted (the player left). */
  readonly cancelled: () => boolean;
  /** False: no message pass at this load (a restore's, whose write would undo its effect). */
  readonly messages?: boolean;
  /** The caller's abort (`load(key, { signal })`): `Data.Aborted` at once, no lock left taken. */
  readonly signal?: AbortSignalLike;
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

export class Loader {
  /** This driver's loads so far: each load's `loadId` in the events. */
  #loads = 0;

  constructor(
    private readonly context: DriverContext,
    private readonly registry: SessionRegistry,
    private readonly holder: HolderHooks,
    private readonly hooks: SessionHooks<ProfileSession>,
  ) {}

  async load(key: string, how: LoadHow): Promise<ProfileSession> {
    const { context, registry } = this;
    const started = context.scheduler.now();
    this.#loads += 1;
    const loadId = this.#loads;
    context.emit({ type: 'load.started', key, loadId, session: how.player !== undefined });
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
      const waiting = waitOnThisServer(context, registry, key, how, loadId, reserve, replace);
      const work: Promise<Landed> =
        waiting === undefined
          ? this.fromStore(key, how, reservation)
          : waiting.then((adopted): Landed | Promise<Landed> =>
              adopted
                ? { session: adopted, reason: 'adopted' as const }
                : this.fromStore(key, how, reservation),
            );
      const loaded = signal
        ? await untilAborted(work, signal, key, {
            onAbort: () => reservation.reply.notify(), // a parked wait wakes and finds it unwanted
            giveBack: ({ session }) => void session.release('aborted').catch(() => undefined),
          })
        : await work;
      // The clock is read for the event only when someone hears it (most servers: nobody).
      if (context.events.listening('load.loaded')) {
        const waitedMs = context.scheduler.now() - started;
        context.emit({ type: 'load.loaded', key, loadId, reason: loaded.reason, waitedMs });
      }
      return loaded.session;
    } catch (error) {
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, `load of ${key} failed`);
      context.emit({
        type: 'load.failed',
        key,
        loadId,
        waitedMs: context.scheduler.now() - started,
        error: failure,
      });
      throw failure;
    }
  }

  /** Loads from the store under `reservation`, which the local wait has already put in place. */
  private async fromStore(
    key: string,
    how: LoadHow,
    reservation: LoadReservation,
  ): Promise<{ session: ProfileSession; reason: TakeReason }> {
    const { context, registry } = this;
    try {
      const heldHere = (token: string) => registry.holdsToken(token);
      const released = registry.takeReleased(key);
      const acquired = await acquire(context, key, reservation, heldHere, released);
      const { record } = acquired;
      // While the load is in progress (until `landed()`), a write that finds the lock taken
      // ends the session without the lost-lock kick: the load fails instead, and its player is
      // kicked once, as for any failed load. The game never sees a profile already lost.
      const session = new ProfileSession(context, this.hooks, {
        key,
        token: reservation.token,
        data: fillDefaults(record.data, context.settings.defaults),
        filledDefaults: lacksDefaults(record.data, context.settings.defaults),
        userIds: record.meta.userIds ?? [],
        messages: record.meta.messages,
        player: how.player,
        version: record.meta.version,
        stored: acquired.snapshot,
      });
      registry.hold(session);
      if (registry.closed) {
        // The driver closed while this load was landing: give the lock straight back.
        await session.release('shutdown').catch(() => undefined); // reported as profile.release-failed
        throw new DataDriverError(
          ErrorCode.Closed,
          `${context.name} closed while ${key} was loading`,
        );
      }
      this.reportTakeover(key, reservation.loadId, acquired);
      // Messages sent while it was away apply now, before the game sees the profile (onLoad).
      // Without an `onMessage` a pass does nothing (`SessionIo.pass`): none is made at all.
      if (how.messages !== false && context.messageHandlers.current !== undefined) {
        const failure = await session.pass('load').then(
          () => undefined,
          (error: unknown) => error,
        );
        // Any other failure of the pass leaves the messages for a later pass.
        if (!session.active) throw failure ?? lockLostError(key, undefined);
      }
      // Only a load that ran slow awaits the confirmation: the common case stays in this turn.
      if (ranSlow(context, acquired.takenAt)) {
        const take = await confirmSlowTake(context, key, reservation.token);
        if (!take.held) throw session.lostTo(take.holder);
      }
      session.landed();
      return { session, reason: acquired.reason };
    } finally {
      registry.settle(key, reservation);
      // Requests that came during the load are answered now that it has settled.
      for (const [requester, { token, handTo }] of reservation.requesters.take()) {
        this.holder.receive(key, requester, token, undefined, handTo);
      }
    }
  }

  private reportTakeover(key: string, loadId: number, acquired: Acquired): void {
    if (acquired.from && acquired.reason !== 'own') {
      const { reason, from } = acquired;
      this.context.emit({ type: 'lock.taken', key, loadId, reason, from });
    }
    if (acquired.recovered) {
      const { trade } = acquired.recovered;
      const outcome = acquired.recovered.outcome === 'committed' ? 'committed' : 'aborted';
      this.context.emit({ type: 'trade.recovered', key, trade, outcome });
      // This record no longer carries the marker: its journal keeps only what others need.
      this.context.background.track(
        forgetParticipant(this.context, trade, key).catch((error) => {
          this.context.logger.warn(
            `could not clear ${key} from the journal of trade ${trade}: ${describeError(error)}`,
          );
        }),
      );
    }
  }
}
