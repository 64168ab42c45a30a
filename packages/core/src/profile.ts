/**
 * A loaded profile and the session behind it. The public `Profile` is small (data, save,
 * release); `ProfileSession` holds the lock token, the write queue, autosave, and the
 * retained state of a failed leave save, and is what the driver works with.
 */
import { Requesters } from './driver/requesters.js';
import { DataDriverError, ErrorCode, toDataDriverError } from './errors.js';
import type { ProfileEventPayload, SaveReason } from './events.js';
import type { JsonObject } from './json.js';
import { checkStoreKey } from './keys.js';
import type { HostPlayer } from './ports/host.js';
import type { ScheduledTask, Scheduler } from './ports/scheduler.js';
import type { Store, StoreRecord } from './ports/store.js';
import {
  checkRecordSize,
  decideRelease,
  decideSave,
  type LockInfo,
  type LockWriter,
  lockedRecord,
  type ProfileRecord,
  parseRecord,
  releasedRecord,
  serializeData,
  toStoreRecord,
} from './rules/index.js';

/** What a session needs from the driver that owns it. */
export interface SessionOwner {
  readonly store: Store;
  readonly scheduler: Scheduler;
  readonly jobId: string;
  /** True when this server beats presence: its locks carry the flag. */
  readonly presenceFlag: boolean;
  readonly autosaveMs: number;
  /** The schema version this server writes (migrations). */
  readonly schema: number;
  storeKey(key: string): string;
  emit(event: ProfileEventPayload): void;
  /** A write of the session settled or its state changed: same-server waits re-check. */
  changed(session: ProfileSession): void;
  /** The session stopped holding its lock (released, or lost to another server). */
  deactivated(session: ProfileSession): void;
  /** A save found the lock taken: end the player's session there. */
  lockLost(session: ProfileSession): void;
}

export type SessionState = 'active' | 'leaving' | 'inactive';

/** What a session starts from: the record its load took. */
export interface SessionStart {
  readonly key: string;
  readonly token: string;
  readonly data: JsonObject;
  readonly userIds?: readonly string[];
  readonly player?: HostPlayer | undefined;
}

/** A trade holding this session: its saves and release wait for the decision. */
export interface HeldByTrade {
  readonly id: string;
  readonly decided: Promise<unknown>;
}

const sessions = new WeakMap<Profile<object>, ProfileSession>();

/** The session behind a profile of this package. */
export function sessionOf(profile: Profile<object>): ProfileSession | undefined {
  return sessions.get(profile);
}

export class ProfileSession {
  readonly profile: Profile<object>;
  state: SessionState = 'active';
  /** The leave save failed: the profile is retained, newest copy, still under this lock. */
  releaseFailed = false;
  player: HostPlayer | undefined;
  /** The player was kicked so the session ends: more requests just wait for its release. */
  ending = false;
  /** Servers waiting for this key: each gets a reply when the session ends. */
  readonly requesters = new Requesters();
  trade: HeldByTrade | undefined;
  /** Writes queued or running; "no save is running" means zero. */
  writesInFlight = 0;
  /**
   * Set by adoption until a save lands: the leave save may have committed with its response
   * lost, so a save may retake a record whose last write is this session's own release.
   * Autosaves retrying an adoption save that failed need this as much as the first one.
   */
  private retakeUntilSaved = false;
  /** Waiting for this session's next write to land (see `nextWrite`). */
  private writeWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private tail: Promise<void> = Promise.resolve();
  private queuedSave: Promise<void> | undefined;
  private releasing: Promise<void> | undefined;
  private autosave: ScheduledTask | undefined;

  readonly key: string;
  readonly token: string;
  data: JsonObject;
  /** The user ids the record belongs to (for erasure requests); written with every save. */
  userIds: string[];
  /** The data as last written: a save keeps a version only when it changed. */
  private written: string;

  constructor(
    private readonly owner: SessionOwner,
    start: SessionStart,
  ) {
    this.key = start.key;
    this.token = start.token;
    this.data = start.data;
    this.userIds = [...(start.userIds ?? [])];
    this.player = start.player;
    this.written = JSON.stringify(start.data);
    this.profile = new Profile(this);
    sessions.set(this.profile, this);
    this.startAutosave();
  }

  get leaving(): boolean {
    return this.state === 'leaving';
  }

  /** Saves the data under this session's lock; waits for a trade holding it to be decided. */
  async save(reason: SaveReason = 'manual'): Promise<void> {
    this.assertActive();
    if (this.trade) await this.trade.decided;
    if (this.queuedSave) return this.queuedSave;
    const save = this.enqueue(() => {
      this.queuedSave = undefined;
      return this.writeSave(reason);
    });
    this.queuedSave = save;
    return save;
  }

  /**
   * Ends the session: saves and clears the lock. A failure retains the profile and rethrows.
   * An active profile whose data cannot be saved (`Data.InvalidData`) stays active instead:
   * nothing is written, and a release after fixing the data works.
   */
  release(): Promise<void> {
    if (this.state === 'inactive') return Promise.resolve();
    if (this.releasing) return this.releasing;
    if (this.state === 'active') {
      try {
        serializeData(this.key, this.data);
      } catch (error) {
        const failure = error as DataDriverError;
        this.owner.emit({
          type: 'profile.save-failed',
          key: this.key,
          reason: 'release',
          error: failure,
        });
        return Promise.reject(failure);
      }
    }
    this.beginLeave();
    this.releasing = this.runRelease().finally(() => {
      this.releasing = undefined;
    });
    return this.releasing;
  }

  /**
   * Marks the session as leaving before its release save starts (while the game's leave
   * cleanups run), so a rejoin here waits for the leave save and a request awaits it.
   */
  beginLeave(): void {
    if (this.state !== 'active') return;
    this.state = 'leaving';
    this.owner.emit({ type: 'profile.releasing', key: this.key });
    this.owner.changed(this);
  }

  /** True when a load on this server may take this retained profile back. */
  get adoptable(): boolean {
    return this.leaving && this.releaseFailed && this.writesInFlight === 0 && !this.trade;
  }

  /**
   * Takes a retained profile back: clears the release request and saves at once. `kept`: the
   * player continues on this profile; `lost`: another server took the lock (deactivated);
   * `unsaved`: the backend still fails, the player keeps playing and autosaves retry.
   */
  async adopt(): Promise<'kept' | 'lost' | 'unsaved'> {
    this.state = 'active';
    this.releaseFailed = false;
    this.requesters.clear();
    // The player it had has left; the adopting load sets the one rejoining. A lost lock found
    // by the adoption save must not kick anyone: a host may kick by player id, which would
    // remove the player rejoining (seed: the profile deactivates, the record loads normally).
    this.player = undefined;
    this.retakeUntilSaved = true;
    this.startAutosave();
    try {
      await this.enqueue(() => this.writeSave('adopt'));
      return 'kept';
    } catch (error) {
      return DataDriverError.is(error, ErrorCode.LockLost) ? 'lost' : 'unsaved';
    }
  }

  /**
   * Resolves when the next save or release of this session lands, which clears any trade
   * marker it left; rejects if the session ends first without one (its lock was taken: the
   * new holder's load settles the marker).
   */
  nextWrite(): Promise<void> {
    if (this.state === 'inactive') return Promise.reject(this.inactiveError());
    return new Promise((resolve, reject) => {
      this.writeWaiters.push({ resolve, reject });
    });
  }

  /** Runs `write` after every earlier write of this session. */
  enqueue<R>(write: () => Promise<R>): Promise<R> {
    this.writesInFlight += 1;
    const run = this.tail.then(write);
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => {
      this.writesInFlight -= 1;
      this.owner.changed(this);
    });
  }

  /** The lock this session writes. */
  writer(): LockWriter {
    return {
      jobId: this.owner.jobId,
      token: this.token,
      now: this.owner.scheduler.now(),
      presence: this.owner.presenceFlag,
    };
  }

  /** Marks the session lost to another server: no more writes, and the player is removed. */
  lose(holder: LockInfo | undefined): void {
    if (this.state === 'inactive') return;
    const wasActive = this.state === 'active';
    this.owner.emit({ type: 'lock.lost', key: this.key, ...(holder ? { holder } : {}) });
    this.deactivate();
    if (wasActive) this.owner.lockLost(this);
  }

  deactivate(): void {
    if (this.state === 'inactive') return;
    this.state = 'inactive';
    this.autosave?.cancel();
    this.autosave = undefined;
    const waiters = this.writeWaiters;
    this.writeWaiters = [];
    for (const waiter of waiters) waiter.reject(this.inactiveError());
    this.owner.deactivated(this);
  }

  private async runRelease(): Promise<void> {
    if (this.trade) await this.trade.decided;
    try {
      await this.enqueue(() => this.writeRelease());
      this.releaseFailed = false;
    } catch (error) {
      if (this.state !== 'inactive') {
        this.releaseFailed = true;
        const failure = toDataDriverError(error, ErrorCode.BackendFailed, 'release failed');
        this.owner.emit({ type: 'profile.release-failed', key: this.key, error: failure });
        this.owner.changed(this);
      }
      throw error;
    }
  }

  private async writeSave(reason: SaveReason): Promise<void> {
    if (this.state === 'inactive') throw this.inactiveError();
    let decision: ReturnType<typeof decideSave> = { kind: 'lost' };
    const retake = this.retakeUntilSaved;
    let json = this.written;
    try {
      json = serializeData(this.key, this.data);
      await this.owner.store.update(
        this.owner.storeKey(this.key),
        (current) => {
          const record = parseRecord(this.key, current);
          decision = decideSave(record, this.token, { retake });
          if (decision.kind === 'lost') return undefined;
          const data = JSON.parse(json) as JsonObject;
          return this.fitting(lockedRecord(record, data, this.writer(), this.extras()));
        },
        { keepVersion: json !== this.written },
      );
      this.written = json;
    } catch (error) {
      const failure = toDataDriverError(
        error,
        ErrorCode.BackendFailed,
        `save of ${this.key} failed`,
      );
      this.owner.emit({ type: 'profile.save-failed', key: this.key, reason, error: failure });
      throw failure;
    }
    if (decision.kind === 'lost') throw this.lost(decision.holder);
    this.retakeUntilSaved = false;
    this.landed();
    this.owner.emit({ type: 'profile.saved', key: this.key, reason });
  }

  private async writeRelease(): Promise<void> {
    let decision: ReturnType<typeof decideRelease> = { kind: 'lost' };
    let json = this.written;
    try {
      json = serializeData(this.key, this.data);
      await this.owner.store.update(
        this.owner.storeKey(this.key),
        (current) => {
          const record = parseRecord(this.key, current);
          decision = decideRelease(record, this.token);
          if (decision.kind !== 'write') return undefined;
          const data = JSON.parse(json) as JsonObject;
          return this.fitting(releasedRecord(record, data, this.token, this.extras()));
        },
        { keepVersion: json !== this.written },
      );
    } catch (error) {
      throw toDataDriverError(error, ErrorCode.BackendFailed, `release of ${this.key} failed`);
    }
    if (decision.kind === 'lost') throw this.lost(decision.holder);
    this.landed();
    this.owner.emit({ type: 'profile.released', key: this.key });
    this.deactivate();
  }

  /**
   * Deletes the record under this session's lock and ends the session (erasure). Rejects
   * with `Data.LockLost` if another server took the lock.
   */
  async erase(): Promise<void> {
    this.assertActive();
    let decision: ReturnType<typeof decideSave> = { kind: 'lost' };
    await this.enqueue(async () => {
      await this.owner.store.update(this.owner.storeKey(this.key), (current) => {
        decision = decideSave(parseRecord(this.key, current), this.token);
        return decision.kind === 'write' ? null : undefined;
      });
    });
    if (decision.kind === 'lost') throw this.lost(decision.holder);
    this.deactivate();
  }

  private landed(): void {
    const waiters = this.writeWaiters;
    this.writeWaiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  /** `record` as the store takes it, or `Data.TooLarge` over the store's `maxRecordBytes`. */
  fitting(record: ProfileRecord): StoreRecord {
    return checkRecordSize(this.key, toStoreRecord(record), this.owner.store.maxRecordBytes);
  }

  /** The meta every write of this session sets besides the lock (schema, user ids). */
  extras() {
    return { schema: this.owner.schema, userIds: this.userIds };
  }

  private lost(holder: LockInfo | undefined): DataDriverError {
    this.lose(holder);
    return new DataDriverError(
      ErrorCode.LockLost,
      `the lock of ${this.key} was taken${holder ? ` by server ${holder.jobId}` : ''}; the profile is deactivated`,
      { details: { key: this.key, holder } },
    );
  }

  private startAutosave(): void {
    if (this.autosave || this.owner.autosaveMs <= 0) return;
    this.autosave = this.owner.scheduler.repeat(
      this.owner.autosaveMs,
      () => this.autosaveTick(),
      'background',
    );
  }

  private autosaveTick(): void {
    // A stuck write only holds back this profile: every profile has its own timer.
    if (this.writesInFlight > 0 || this.trade) return;
    if (this.state === 'active') {
      this.save('autosave').catch(() => undefined); // reported as profile.save-failed
    } else if (this.leaving && this.releaseFailed) {
      this.release().catch(() => undefined); // reported as profile.release-failed
    }
  }

  private assertActive(): void {
    if (this.state !== 'active') throw this.inactiveError();
  }

  private inactiveError(): DataDriverError {
    return new DataDriverError(ErrorCode.Inactive, `the profile of ${this.key} is not active`, {
      details: { key: this.key },
    });
  }
}

/** A player's data under this server's session lock. */
export class Profile<T extends object> {
  readonly #session: ProfileSession;

  /** @internal Profiles are made by `DataDriver.load`. */
  constructor(session: ProfileSession) {
    this.#session = session;
  }

  /** The profile's key in its driver. */
  get key(): string {
    return this.#session.key;
  }

  /** The player's data. Change it freely; it is written by `save()`, autosave and `release()`. */
  get data(): T {
    return this.#session.data as unknown as T;
  }

  set data(value: T) {
    this.#session.data = value as unknown as JsonObject;
  }

  /** True while this server holds the lock and the profile accepts changes. */
  get active(): boolean {
    return this.#session.state === 'active';
  }

  /** The lock token of this session (for logs). */
  get lockToken(): string {
    return this.#session.token;
  }

  /** The user ids this profile belongs to, kept in the record for erasure requests. */
  get userIds(): readonly string[] {
    return this.#session.userIds;
  }

  /** Tags the profile with a user id (a string of well-formed UTF-16); written with the next save. */
  addUserId(userId: string): void {
    checkStoreKey(userId, 'a user id');
    if (!this.#session.userIds.includes(userId)) this.#session.userIds.push(userId);
  }

  /** Removes a user id tag; written with the next save. */
  removeUserId(userId: string): void {
    this.#session.userIds = this.#session.userIds.filter((id) => id !== userId);
  }

  /** Saves now. Rejects with `Data.LockLost` if another server took the lock. */
  save(): Promise<void> {
    return this.#session.save('manual');
  }

  /** Saves and releases the lock. The profile becomes inactive. */
  release(): Promise<void> {
    return this.#session.release();
  }
}
