/**
 * DataDriver, the public API: player profiles under a session lock. Every method delegates to
 * the driver's parts (`driver/assemble.ts`): a load runs the same-server rules, then takes the
 * lock across servers (`load/`); `attach` ties loads and releases to a game server's players
 * (`holder/player-sessions.ts`). Other servers' release requests reach the holder's side
 * through the handoff endpoint built at assembly (`holder/handoff-endpoint.ts`), never here.
 */

import type { DataDriverOptions, SchemaDriverOptions } from '../config/options.js';
import type { DriverContext } from '../context/context.js';
import type { DriverHealth } from '../context/health-monitor.js';
import type { EventListener } from '../events/events.js';
import type { Handoff } from '../handoff/handoff.js';
import { checkKickMessage, type RequestReason } from '../handoff/wire.js';
import { attachHost } from '../holder/attach.js';
import type { AttachOptions } from '../holder/player-sessions.js';
import type { LoadHow } from '../load/load-steps.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { Host, HostPlayer } from '../ports/host.js';
import type { JsonObject } from '../ports/json.js';
import type { StoreVersion, VersionQuery } from '../ports/store.js';
import { checkProfileKey } from '../rules/keys.js';
import type { Profile } from '../session/profile.js';
import type { ProfileSession } from '../session/profile-session.js';
import { sessionOf } from '../session/session-of.js';
import { trade } from '../trade/trade.js';
import { assemble, type DriverParts } from './assemble.js';
import { type CloseResult, closeDriver } from './close.js';
import { erase, listVersions, restoreAt, restoreTime } from './history.js';
import { checkSeconds, loadTerms } from './load-terms.js';
import { type SendOptions, type SendResult, send } from './send.js';
import { type ProfileView, viewProfile } from './view.js';

export type { CloseResult, DriverHealth, ProfileView };

export interface LoadOptions {
  /** How long this load waits for a load or leave save of the same key on this server. */
  readonly handoffSeconds?: number;
  /**
   * Aborts the load: it rejects with `Data.Aborted` at once, having taken no lock (a take
   * already on its way when the signal fired is given straight back). A signal that fires
   * after the load resolved does nothing.
   */
  readonly signal?: AbortSignal;
}

export class DataDriver<T extends object> {
  readonly #context: DriverContext;
  readonly #parts: DriverParts;
  /** The terms of a load given no options (`#how`). */
  #plainHow: LoadHow | undefined;

  /** With a `schema`, the data type is the schema's output, and `defaults` must match it. */
  constructor(options: SchemaDriverOptions<T>);
  constructor(options: DataDriverOptions<T>);
  constructor(options: DataDriverOptions<T>) {
    this.#parts = assemble(options);
    this.#context = this.#parts.context;
    this.#context.link.start();
  }

  /** The driver's name: the namespace of its keys, and how handoff routes its messages. */
  get name(): string {
    return this.#context.name;
  }

  /**
   * This server's id, as written into locks: the `jobId` option, else the handoff's, else the
   * host's once attached, else one random id per process. The first load fixes it.
   */
  get jobId(): string {
    return this.#context.identity.jobId;
  }

  /** `ok`, or `critical` after a run of store failures (the `health` option): show a banner. */
  get health(): DriverHealth {
    return this.#context.health.current;
  }

  /** The handoff this driver uses, or `undefined` when handoff is off. */
  get handoff(): Handoff | undefined {
    return this.#context.link.handoff;
  }

  /** Subscribes to what this driver does. Returns a function that unsubscribes. */
  on(listener: EventListener): () => void {
    return this.#context.events.on(listener);
  }

  /** The active profile of `key` on this server, if any. */
  profile(key: string): Profile<T> | undefined {
    checkProfileKey(key);
    const session = this.#parts.registry.session(key);
    return session?.active ? (session.profile as Profile<T>) : undefined;
  }

  /**
   * Loads `key` under this server's lock. Waits `options.handoffSeconds` (else
   * `localHandoffSeconds`, else 0) for a load or leave save of the key on this server, then
   * up to `lockWaitSeconds` for another server's lock; rejects with `Data.Locked` after that,
   * leaving the record untouched.
   */
  load(key: string, options?: LoadOptions): Promise<Profile<T>> {
    // Not an async function: one promise fewer on every load. A refused option still rejects.
    try {
      const loading = this.#parts.loader.loadAs(key, this.#how(options, true), profileOf);
      return loading as Promise<Profile<T>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Ties profiles to a game server's players: a joining player's profile loads (or the
   * player is kicked when it cannot), a leaving player's profile is released. Turns handoff
   * on by the default rule. Returns a function that detaches.
   */
  attach<P extends HostPlayer>(host: Host<P>, options: AttachOptions<T, P> = {}): () => void {
    this.#assertOpen();
    return attachHost(this.#parts, host, options);
  }

  /**
   * Sends `body` to profile `key`, wherever it is: held on this server or another, or by
   * none. Resolves once the message is durable in the profile's inbox (`queued`), or
   * `duplicate` when the profile already received `options.id`; its holder applies it once
   * with `onMessage` (at once on a nudge, else at its next autosave or load). Never loads,
   * locks or kicks. Rejects with a typed error and writes nothing for a bad id or body
   * (`Data.InvalidArgument`, `Data.InvalidData`), a message over 16 KiB (`Data.TooLarge`), a
   * full inbox (`Data.InboxFull`) or an id it cannot tell received (`Data.DeliveryUncertain`).
   */
  send(key: string, body: unknown, options: SendOptions): Promise<SendResult> {
    this.#assertOpen();
    return send(this.#context, key, body, options);
  }

  /**
   * `key` as last stored, from any process with the store: its data as a load would see it,
   * its lock's holder and its version (`undefined`: never saved). Takes no lock, kicks nobody,
   * writes nothing; the holder's unsaved changes are not in it (at most an autosave old).
   */
  async view(key: string): Promise<ProfileView<T> | undefined> {
    this.#assertOpen();
    checkProfileKey(key);
    return (await viewProfile(this.#context, key)) as ProfileView<T> | undefined;
  }

  /** The kept versions of `key`, newest first (the store must keep versions). */
  async versions(key: string, query: VersionQuery = {}): Promise<readonly StoreVersion[]> {
    checkProfileKey(key);
    return listVersions(this.#context, key, query);
  }

  /**
   * Takes the lock of `key` as `load` does (handoff included), writes the version that was
   * current at `time` as the new current record (history is kept; nothing is deleted), and
   * returns the profile. Rejects with `Data.VersionNotFound`, touching nothing, when no
   * version that old is retained.
   */
  async restoreAt(
    key: string,
    time: number | Date,
    options: LoadOptions = {},
  ): Promise<Profile<T>> {
    checkProfileKey(key);
    const at = restoreTime(time);
    const session = await restoreAt(this.#context, key, at, () => this.#supportLoad(key, options));
    return session.profile as Profile<T>;
  }

  /**
   * Erases `key` for a data-protection request: takes the lock as `load` does (a live holder
   * elsewhere is asked to release it, like a join), deletes the record and every kept
   * version, and leaves nothing a later load could bring back.
   */
  async erase(key: string, options: LoadOptions = {}): Promise<void> {
    checkProfileKey(key);
    const session = await this.#supportLoad(key, options);
    await erase(this.#context, session);
  }

  /**
   * Changes two profiles together or not at all. `apply` changes copies of both datas, which
   * replace the profiles' data once the trade commits; rejects with `Data.TradeFailed` when
   * it aborts, and neither profile changes. Rejects with `Data.Closed` when the driver closed
   * before the decision was written (`details.decision` says which); one closed while its
   * commit was being written reports `trade.undecided`, since it may have committed, and each
   * participant's next load settles it from the journal.
   */
  async trade(a: Profile<T>, b: Profile<T>, apply: (a: T, b: T) => void): Promise<void> {
    this.#assertOpen();
    const sessions = [this.#own(a), this.#own(b)] as const;
    const { registry } = this.#parts;
    await trade(
      this.#context,
      sessions,
      (x: JsonObject, y: JsonObject) => apply(x as unknown as T, y as unknown as T),
      () => registry.ended,
    );
  }

  /**
   * Shuts the driver down: cancels waiting loads, releases every profile, and resolves by
   * `deadlineSeconds` (default 10) with what was and was not released.
   */
  async close(options: { deadlineSeconds?: number } = {}): Promise<CloseResult> {
    const deadlineMs = checkSeconds('deadlineSeconds', options.deadlineSeconds ?? 10) * 1000;
    // The host stays attached: a player added from now on gets load.failed (Data.Closed), a
    // definite outcome a host can wait for, rather than no event at all.
    this.#parts.registry.close();
    return closeDriver(this.#context, this.#parts, deadlineMs);
  }

  /** True once `close()` was called: loads are refused with `Data.Closed`. */
  get closed(): boolean {
    return this.#parts.registry.closed;
  }

  /**
   * Ends `key`'s session on purpose, wherever it is (an operator's steal): its holder is asked
   * to release it and kicks its player with `options.message`; the lock is then taken as a
   * load does and released at once. Never takes a live lock by age: `Data.Locked` when the
   * holder does not answer within `lockWaitSeconds`. `ended: false`: no session to end (no
   * lock, or never saved), and nothing was written.
   */
  async kick(key: string, options: { readonly message: string }): Promise<{ ended: boolean }> {
    this.#assertOpen();
    checkProfileKey(key);
    checkKickMessage(options?.message);
    if ((await viewProfile(this.#context, key))?.lock === undefined) return { ended: false };
    const session = await this.#supportLoad(key, {}, { message: options.message });
    await session.release('operator');
    return { ended: true };
  }

  /** A load for `restoreAt`, `erase` or `kick`: its requests tell the holder who asks, and why. */
  async #supportLoad(
    key: string,
    options: LoadOptions,
    reason: RequestReason = 'support',
  ): Promise<ProfileSession> {
    const { supportLoads, operatorKicks } = this.#parts.endpoint;
    if (reason === 'support') supportLoads.add(key);
    else operatorKicks.set(key, reason.message);
    try {
      // No message pass at its load: a restore would overwrite its effect, an erase delete it.
      return await this.#parts.loader.load(key, this.#how(options, false));
    } finally {
      supportLoads.delete(key);
      operatorKicks.delete(key);
    }
  }

  /** A load's terms from `load`'s options; `messages`: false for a support load (no pass). */
  #how(options: LoadOptions | undefined, messages: boolean): LoadHow {
    const { localHandoffMs } = this.#context.settings;
    // A load with no options (most): its terms are the settings', made once per driver.
    if (options === undefined && messages) {
      this.#plainHow ??= loadTerms(localHandoffMs, undefined, undefined, true);
      return this.#plainHow;
    }
    const { handoffSeconds, signal }: LoadOptions = options === undefined ? {} : options;
    return loadTerms(localHandoffMs, handoffSeconds, signal, messages);
  }

  /** The session behind `profile`, which must be one this driver holds. */
  #own(profile: Profile<T>): ProfileSession {
    const session = sessionOf(profile as Profile<object>);
    if (!session || this.#parts.registry.session(session.key) !== session) {
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        'that profile is not held by this driver',
      );
    }
    return session;
  }

  #assertOpen(): void {
    if (this.#parts.registry.closed) {
      throw new DataDriverError(ErrorCode.Closed, `${this.name} is closed`);
    }
  }
}

/** What `load` resolves with: the session's profile, the game's side of it. */
function profileOf(session: ProfileSession): Profile<object> {
  return session.profile;
}
