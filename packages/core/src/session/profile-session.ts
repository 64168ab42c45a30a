/**
 * The session behind a loaded profile: its lock token, its state (`rules/session-state.ts`,
 * moved only here, through named transitions), its player and trade, and autosave. Its writes
 * run one after another through `SessionIo`. The public `Profile` is a thin view of it.
 */
import type { DriverContext } from '../context/context.js';
import type { KickCause, ReleaseReason, SaveReason } from '../events/events.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { HostPlayer } from '../ports/host.js';
import type { JsonObject } from '../ports/json.js';
import {
  isActive,
  type LockInfo,
  nextState,
  type SessionState,
  type SessionTransition,
} from '../rules/index.js';
import { limitsFor } from '../rules/messages/index.js';
import { Autosave } from './autosave.js';
import type { PassReason } from './message-pass.js';
import { Profile } from './profile.js';
import { checkBeforeRelease } from './release-check.js';
import { Requesters } from './requesters.js';
import { beforeRelease } from './save-hooks.js';
import { SessionEnd } from './session-end.js';
import { inactiveError, lockLostError } from './session-errors.js';
import { SessionIo } from './session-io.js';
import { SessionMessages } from './session-messages.js';
import type { HeldByTrade, SessionHooks, SessionStart } from './session-terms.js';
import { SessionView } from './session-view.js';
import { UserIds } from './user-ids.js';
import { loadedSnapshot, type WrittenSnapshot } from './written-snapshot.js';

export class ProfileSession {
  readonly profile: Profile<object>;
  readonly key: string;
  readonly token: string;
  /** Servers waiting for this key: each gets a reply when the session ends. */
  readonly requesters = new Requesters();
  /** The data; change it freely, it is written by the next save. */
  data: JsonObject;
  /** Its messages' ids and outbox, carried by every write, and its message passes. */
  readonly messages: SessionMessages;
  /** The user ids its record belongs to (for erasure requests); written with every save. */
  readonly userIds: UserIds;
  #state: SessionState = 'active';
  #player: HostPlayer | undefined;
  #trade: HeldByTrade | undefined;
  #releasing: Promise<void> | undefined;
  /** True until its load hands it to the game: a lost lock then fails the load, with no kick. */
  #landing = true;
  /** Why the session ends (`beforeRelease`'s reason). */
  readonly end = new SessionEnd();
  readonly #io: SessionIo;
  readonly #view: SessionView;
  readonly #autosave: Autosave;

  constructor(
    private readonly context: DriverContext,
    private readonly hooks: SessionHooks<ProfileSession>,
    start: SessionStart,
  ) {
    this.key = start.key;
    this.token = start.token;
    this.data = start.data;
    this.userIds = new UserIds(start.userIds);
    this.#player = start.player;
    const limits = limitsFor(context.store.maxRecordBytes);
    this.messages = new SessionMessages(start.messages, context.scheduler, limits);
    const view = new SessionView(this, hooks);
    this.#view = view;
    this.#io = new SessionIo(context, view, loadedSnapshot(start), start.storeKey);
    const { autosaves, scheduler, settings } = context;
    this.#autosave = new Autosave(autosaves, scheduler, settings.autosaveMs, this);
    this.profile = new Profile(this);
    this.#autosave.start();
  }

  get state(): SessionState {
    return this.#state;
  }

  /** True while the profile accepts changes (active, or ending after a kick). */
  get active(): boolean {
    return isActive(this.#state);
  }

  /** The player this session is loaded for (attach), if any. */
  get player(): HostPlayer | undefined {
    return this.#player;
  }

  /** The trade holding this session, if any. */
  get trade(): HeldByTrade | undefined {
    return this.#trade;
  }

  /** True while a write is queued or running. */
  get writing(): boolean {
    return this.#io.busy;
  }

  /** What this session last wrote. */
  get lastWritten(): WrittenSnapshot {
    return this.#io.lastWritten;
  }

  /** A message pass (`message-pass.ts`), in the write queue; true when it saved. */
  pass(reason: PassReason): Promise<boolean> {
    return this.#io.pass(this, reason, () => this.#mayPass());
  }

  /** Whether a pass may run once its turn in the queue comes. */
  #mayPass(): boolean {
    return this.active && !this.#trade;
  }

  /** Saves the data under this session's lock; waits for a trade holding it to be decided. */
  save(reason: SaveReason = 'manual'): Promise<void> {
    if (!this.active) return Promise.reject(inactiveError(this.key));
    const trade = this.#trade;
    // After a trade holding it is decided (never rejected); with none, at once, no closure made.
    return trade ? trade.decided.then(() => this.#io.save(reason)) : this.#io.save(reason);
  }

  /**
   * Ends the session: saves and clears the lock. A failure retains the profile and rethrows.
   * An active profile whose data cannot be saved (`Data.InvalidData`) stays active instead:
   * nothing is written, and a release after fixing the data works. `reason`: why it ends,
   * for `beforeRelease` (run once, by the first release; a retry keeps the first reason).
   */
  release(reason: ReleaseReason): Promise<void> {
    if (this.#state === 'inactive') return Promise.resolve();
    if (this.#releasing) return this.#releasing;
    if (this.end.begin(reason)) beforeRelease(this.context, this.#view, reason);
    // An asynchronous schema's verdict first; the release write checks the data again.
    const checked = this.active ? checkBeforeRelease(this.context, this.key, this.data) : undefined;
    return checked ? checked.then(() => this.#leave()) : this.#leave();
  }

  #leave(): Promise<void> {
    if (this.#state === 'inactive') return Promise.resolve();
    if (this.#releasing) return this.#releasing;
    this.beginLeave();
    this.#releasing = this.#release(); // cleared by it as it settles, in a later turn
    return this.#releasing;
  }

  /**
   * Marks the session as leaving before its release save starts (while the game's leave
   * cleanups run), so a rejoin here waits for the leave save and a request awaits it.
   */
  beginLeave(): void {
    const wasActive = this.active;
    if (this.#move('leave') && wasActive && this.context.events.listening('profile.releasing')) {
      this.context.emit({ type: 'profile.releasing', key: this.key });
    }
  }

  /** Its player was kicked: requests wait for the leave from now on. */
  kicked(cause: KickCause): void {
    this.end.kicked(cause);
    this.#move('kick');
  }

  /** Holds this session for a trade until `hold.decided` settles (`undefined`: no longer). */
  joinTrade(hold: HeldByTrade | undefined): void {
    this.#trade = hold;
  }

  /**
   * Takes a retained profile back for `player`: clears the release request and saves at once.
   * `kept`: the player continues on this profile; `lost`: another server took the lock
   * (deactivated); `unsaved`: the backend still fails, the player plays on and autosaves retry.
   */
  async adopt(player: HostPlayer | undefined): Promise<'kept' | 'lost' | 'unsaved'> {
    this.#move('adopt');
    this.requesters.clear();
    // The player it had has left. A lost lock found by the adoption save must not kick anyone:
    // a host may kick by player id, which would remove the player rejoining (seed: the profile
    // deactivates, the record loads normally). The rejoining player is set once it is kept.
    this.#player = undefined;
    this.#io.retakeUntilSaved = true;
    this.#autosave.start();
    try {
      await this.#io.save('adopt');
    } catch (error) {
      if (DataDriverError.is(error, ErrorCode.LockLost)) return 'lost';
      this.#player = player;
      return 'unsaved';
    }
    this.#player = player;
    return 'kept';
  }

  /**
   * Resolves when the next save or release of this session lands, which clears any trade
   * marker it left; rejects if the session ends first without one (its lock was taken: the
   * new holder's load settles the marker).
   */
  nextWrite(): Promise<void> {
    if (this.#state === 'inactive') return Promise.reject(inactiveError(this.key));
    return this.#io.nextLanding();
  }

  /** Writes a trade's marker on this participant's record, with its data as it is now. */
  markTrade(marker: { readonly id: string; readonly journal: string }): Promise<void> {
    return this.#io.mark(marker);
  }

  /**
   * Deletes the record under this session's lock and ends the session (erasure), once a trade
   * holding it is decided. Rejects with `Data.LockLost` if another server took the lock.
   */
  async erase(): Promise<void> {
    this.#assertActive();
    const trade = this.#trade;
    await (trade ? trade.decided.then(() => this.#io.erase()) : this.#io.erase());
    this.#deactivate('erased');
  }

  /**
   * The release save, whose outcome the writes report in their own callback (`left`,
   * `leaveFailed`): a release makes no promise of its own.
   */
  #release(): Promise<void> {
    const trade = this.#trade;
    return trade ? trade.decided.then(() => this.#io.release()) : this.#io.release();
  }

  /** The release save landed: the session ends. */
  left(): void {
    this.#deactivate('released');
    this.#releasing = undefined;
  }

  /** The release failed with `error`, returned for it to reject with: the profile is retained. */
  leaveFailed(error: unknown): unknown {
    if (this.#move('leave-failed')) {
      const failure = error as DataDriverError;
      this.context.emit({ type: 'profile.release-failed', key: this.key, error: failure });
    }
    this.#releasing = undefined;
    return error;
  }

  /** Its load handed it to the game: a lost lock from now on kicks its player. */
  landed(): void {
    this.#landing = false;
  }

  /** A write or a slow load's read found the lock taken: no more writes, the player removed. */
  lostTo(holder: LockInfo | undefined): DataDriverError {
    if (this.#state !== 'inactive') {
      const wasActive = this.active;
      this.context.emit({ type: 'lock.lost', key: this.key, ...(holder ? { holder } : {}) });
      this.#deactivate('lost');
      if (wasActive && !this.#landing) this.hooks.lockLost(this);
    }
    return lockLostError(this.key, holder);
  }

  #deactivate(transition: 'released' | 'erased' | 'lost'): void {
    if (!this.#move(transition)) return;
    this.#autosave.stop();
    this.#io.abandon(() => inactiveError(this.key));
    // A release's snapshot is kept for this key's next load here (`released-snapshots.ts`).
    const released = transition === 'released' ? this.#io.lastWritten.stored : undefined;
    this.hooks.deactivated(this, released);
  }

  /** Moves the state by `transition`; false when it does not apply in the current state. */
  #move(transition: SessionTransition): boolean {
    const next = nextState(this.#state, transition);
    if (next === undefined) return false;
    this.#state = next;
    this.hooks.changed();
    return true;
  }

  /** Its autosave fell due (`Autosave`): a save, or a retained release's retry. */
  autosaveDue(): void {
    if (this.#io.busy || this.#trade) return;
    if (this.active) {
      this.#io.autosave(this, () => this.#mayPass()).catch(() => undefined); // profile.save-failed
    } else if (this.#state === 'retained') {
      // A retry keeps the first release's reason.
      this.release(this.end.reason ?? 'manual').catch(() => undefined); // profile.release-failed
    }
  }

  #assertActive(): void {
    if (!this.active) throw inactiveError(this.key);
  }
}
