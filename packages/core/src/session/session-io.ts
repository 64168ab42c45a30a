/**
 * A session's writes, one after another, each under its lock (`guarded-write.ts`), with the
 * one policy of every such write: a failure rejects with the typed error, and a lock taken by
 * another server rejects with `Data.LockLost` once the session is told (`lost`). A save
 * reports `profile.saved` or `profile.save-failed`; the release `profile.released`.
 *
 * Each write hands the store the snapshot the session's last write left (`expected`), so a
 * save or the release is one compare-and-set with no read first. A write that rejects may or
 * may not have committed, so its failure drops the snapshot and the next write reads.
 */
import type { DriverContext } from '../context/context.js';
import type { SaveReason } from '../events/events.js';
import type { LockInfo, ReleaseDecision, SaveDecision } from '../rules/index.js';
import { type GuardedWrite, guardedWrite, type Written } from './guarded-write.js';
import { messagePass, type PassIo, type PassOwner, type PassReason } from './message-pass.js';
import { afterCommit, deliverOutbox } from './outbox-delivery.js';
import { beforeSave } from './save-hooks.js';
import { matchSchema } from './schema-match.js';
import { NO_IDS } from './session-messages.js';
import type { SessionIoOwner } from './session-terms.js';
import { SessionUpdate } from './session-update.js';
import {
  eraseWrite,
  markerWrite,
  ReleaseWrite,
  SaveWrite,
  SessionWriter,
  type WriteLanding,
} from './session-writes.js';
import { WriteQueue } from './write-queue.js';
import { reportReleased, reportSaved, saveFailure } from './write-reports.js';
import {
  afterWrite,
  autosaveWritesAfter,
  committedMeta,
  type WrittenSnapshot,
} from './written-snapshot.js';

/** What a save that writes nothing resolves with: one promise for all of them. */
const NOTHING_WRITTEN: Promise<void> = Promise.resolve();

export class SessionIo implements WriteLanding {
  /**
   * Set by adoption until a save lands: the leave save may have committed with its response
   * lost, so a save may retake a record whose last write is this session's own release.
   * Autosaves retrying an adoption save that failed need this as much as the first one.
   */
  retakeUntilSaved = false;
  #lastWritten: WrittenSnapshot;
  #queuedSave: Promise<void> | undefined;
  /** True while every caller of the queued save is an autosave: it may then write nothing. */
  #queuedIdle = false;
  /** The applied message ids as the store last acknowledged them. */
  #durableApplied: readonly string[];
  readonly #queue: WriteQueue;
  readonly #writer: SessionWriter;
  /** Runs the saves and the release, one after another. */
  readonly #update: SessionUpdate;

  constructor(
    private readonly context: DriverContext,
    private readonly owner: SessionIoOwner,
    start: WrittenSnapshot,
    /** The store key of `owner.key`, made once for all of the session's writes. */
    storeKey: string,
  ) {
    this.#lastWritten = start;
    this.#durableApplied = owner.messages.current.applied;
    this.#queue = new WriteQueue(owner);
    this.#writer = new SessionWriter(context, owner.key, owner.token, owner, storeKey);
    this.#update = new SessionUpdate(this.#writer);
    // What the load took is committed: transfers a crash kept from delivery go out now.
    deliverOutbox(context, owner.key, owner.messages, owner.messages.current.outbox);
  }

  /**
   * A message pass after every earlier write and before any later one, lent the session's
   * save run in place (`save` would queue behind the pass itself). None without an
   * `onMessage`, nor when `may()` says no once its turn comes. True when it saved.
   */
  pass(owner: PassOwner, reason: PassReason, may: () => boolean): Promise<boolean> {
    if (this.context.messageHandlers.current === undefined) return Promise.resolve(false);
    return this.#queue.run(() =>
      may()
        ? messagePass(this.context, owner, this.#passIo(), reason, may)
        : Promise.resolve(false),
    );
  }

  /**
   * An autosave: a pass first when there is a handler, whose save (if it made one) is it;
   * `may`, as for a pass.
   */
  autosave(owner: PassOwner, may: () => boolean): Promise<void> {
    if (this.context.messageHandlers.current === undefined) return this.save('autosave');
    return this.pass(owner, 'autosave', may).then((saved) =>
      saved || !may() ? undefined : this.save('autosave'),
    );
  }

  /** What a message pass uses of the writes: made at the first pass (most sessions have none). */
  #passIoMade: PassIo | undefined;
  #passIo(): PassIo {
    this.#passIoMade ??= {
      save: (reason) => this.#save(reason, reason === 'autosave'),
      durableApplied: () => this.#durableApplied,
    };
    return this.#passIoMade;
  }

  /** True while a write is queued or running. */
  get busy(): boolean {
    return this.#queue.busy;
  }
  get lastWritten(): WrittenSnapshot {
    return this.#lastWritten;
  }

  /**
   * Saves after every earlier write; a save already queued is shared, not repeated. Only an
   * autosave may write nothing (`autosaveWrites`): a save asked for by anything else writes,
   * and so does a queued autosave that it joins.
   */
  save(reason: SaveReason): Promise<void> {
    const idle = reason === 'autosave';
    if (this.#queuedSave) {
      this.#queuedIdle &&= idle;
      return this.#queuedSave;
    }
    this.#queuedIdle = idle;
    const save = this.#queue.run(() => {
      this.#queuedSave = undefined;
      return this.#save(reason, this.#queuedIdle);
    });
    this.#queuedSave = save;
    return save;
  }

  /**
   * The leave save: the data written with the lock cleared. Its outcome goes to the owner
   * (`left`, `leaveFailed`) before its promise settles, from whichever step ends it.
   */
  release(): Promise<void> {
    return this.#queue.run(() => {
      try {
        beforeSave(this.context, this.owner, 'release'); // a failure is reported; it goes on
        const json = this.#writer.take(this.owner.data);
        // A synchronous schema (or none) costs the write no turn.
        const schema = matchSchema(this.context, this.owner.key, json);
        if (schema === undefined) return this.#release(json);
        return schema.then(
          () => this.#release(json),
          (error: unknown) => {
            throw this.owner.leaveFailed(error);
          },
        );
      } catch (error) {
        throw this.owner.leaveFailed(error);
      }
    });
  }

  #release(json: string): Promise<void> {
    const at = this.context.scheduler.now();
    const release = new ReleaseWrite(this, this.#writer, json, this.#lastWritten, at);
    return this.#update.run(this.context, release, this.#lastWritten.stored);
  }

  /** The release's write landed (its own callback): the session leaves what it wrote. */
  releaseLanded(release: ReleaseWrite, result: Written<ReleaseDecision>): void {
    try {
      this.#landed(result, release.at, release.json);
      reportReleased(this.context, this.owner, this.#lastWritten);
    } catch (error) {
      throw this.owner.leaveFailed(error);
    }
    this.owner.left();
  }

  /** The record deleted under the lock. */
  erase(): Promise<void> {
    return this.#queue.run(() => this.#guarded(eraseWrite(this.#writer)));
  }

  /** A trade's marker, with the data as it is now (what an abort leaves this participant). */
  mark(marker: { readonly id: string; readonly journal: string }): Promise<void> {
    return this.#queue.run(() =>
      this.#guarded(markerWrite(this.#writer, this.#writer.take(this.owner.data), marker)),
    );
  }

  /** Resolves when the next save or release lands; rejects if `abandon` comes first. */
  nextLanding(): Promise<void> {
    return this.#queue.nextLanding();
  }

  /** No write will land any more. */
  abandon(reason: () => Error): void {
    this.#queue.abandon(reason);
  }

  /**
   * One save; `mayIdle`: an autosave, which writes nothing when its write would store nothing
   * new. A promise chain, not an async function: a save is two promises fewer.
   */
  #save(reason: SaveReason, mayIdle = false): Promise<void> {
    const started = this.context.scheduler.now();
    try {
      const refused = beforeSave(this.context, this.owner, reason);
      if (refused) throw refused;
      const json = this.#writer.take(this.owner.data);
      // After the hook, so what it changes counts; before the schema, which `json` passed.
      const { lockTtlSeconds } = this.context.settings;
      if (mayIdle && !autosaveWritesAfter(this.#lastWritten, json, this.#writer, lockTtlSeconds)) {
        // It still does what its write would have set off: transfers whose delivery failed go
        // again after each write; the committed outbox is the one it would have written.
        this.#writer.drop();
        const outbox = committedMeta(this.#lastWritten)?.messages?.outbox;
        deliverOutbox(this.context, this.owner.key, this.owner.messages, outbox);
        return NOTHING_WRITTEN;
      }
      const schema = matchSchema(this.context, this.owner.key, json);
      if (schema === undefined) return this.#writeSave(reason, json, started, started);
      return schema.then(
        () => this.#writeSave(reason, json, started, this.context.scheduler.now()),
        (error: unknown) => {
          throw saveFailure(this.context, this.owner.key, reason, error, started);
        },
      );
    } catch (error) {
      return Promise.reject(saveFailure(this.context, this.owner.key, reason, error, started));
    }
  }

  /**
   * The save's write of `json`, begun `at`: `started` in the save's own turn (read before the
   * hook, so at or before the lock time it stores). It lands here (`saveLanded`), no closure.
   */
  #writeSave(reason: SaveReason, json: string, started: number, at: number): Promise<void> {
    const last = this.#lastWritten;
    const retake = this.retakeUntilSaved;
    const save = new SaveWrite(this, this.#writer, json, last, at, reason, started, retake);
    return this.#update.run(this.context, save, last.stored);
  }

  /** A save's write landed (its own callback): it lands it and reports it. */
  saveLanded(save: SaveWrite, result: Written<SaveDecision>): void {
    const { reason, started } = save;
    try {
      this.#landed(result, save.at, save.json);
    } catch (error) {
      throw saveFailure(this.context, this.owner.key, reason, error, started);
    }
    this.retakeUntilSaved = false;
    reportSaved(this.context, this.owner, reason, this.#lastWritten, started);
  }

  /** An erasure or a trade marker: one write under the lock, begun now. */
  #guarded<D extends { readonly kind: string; readonly holder?: LockInfo }>(
    write: GuardedWrite<D>,
  ): Promise<void> {
    const at = this.context.scheduler.now();
    return guardedWrite(this.context, write, this.#lastWritten.stored, (result) =>
      this.#landed(result, at, undefined),
    );
  }

  /**
   * What a write's result leaves: the next write's start, or the error it rejects with. Run in
   * the write's own callback: a save is the store's promise and the write's, and no more.
   * `json`, for a save or the release: the snapshot it leaves.
   */
  #landed<D extends { readonly kind: string; readonly holder?: LockInfo }>(
    result: Written<D>,
    at: number,
    json: string | undefined,
  ): void {
    this.#writer.drop();
    const written = afterWrite(this.#lastWritten, result, at, json);
    if (!result.ok) {
      this.#lastWritten = written;
      throw result.error;
    }
    // Committed, whoever wrote it: the ids it records as applied may be trimmed.
    const messages = result.stored?.meta.messages;
    if (result.stored) this.#durableApplied = messages?.applied ?? NO_IDS;
    if (result.stored && result.decision.kind !== 'lost') {
      afterCommit(this.context, this.owner.key, this.owner.messages, messages);
    }
    // After a lost lock, what the store holds now (the other server's record): the next start.
    this.#lastWritten = written;
    if (result.decision.kind === 'lost') throw this.owner.lost(result.decision.holder);
    if (json !== undefined) this.#queue.landed();
  }
}
