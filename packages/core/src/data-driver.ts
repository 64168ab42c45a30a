/**
 * DataDriver: player profiles under a session lock. `load` runs the same-server rules
 * (`local-wait.ts`), then takes the lock across servers (`acquire.ts`); `attach` ties loads
 * and releases to a game server's players (`player-sessions.ts`); the handoff routes other
 * servers' release requests here (`release-requests.ts`).
 */
import { type Acquired, acquire } from './acquire.js';
import { consoleLogger } from './console-logger.js';
import { ServerIdentity } from './driver/identity.js';
import type { DriverState, LoadReservation } from './driver-state.js';
import { DataDriverError, ErrorCode, toDataDriverError } from './errors.js';
import {
  type DataDriverEvent,
  type EventListener,
  type EventPayload,
  EventStream,
  type ProfileEventPayload,
} from './events.js';
import { Handoff, type HandoffClient } from './handoff.js';
import { handoffByDefault } from './handoff-rule.js';
import { checkProfileKey, type DriverKeys, isWellFormedText, keysOf } from './keys.js';
import { waitOnThisServer } from './local-wait.js';
import { type DataDriverOptions, resolveSettings, type Settings } from './options.js';
import { type AttachOptions, PlayerSessions } from './player-sessions.js';
import type { Host, HostPlayer } from './ports/host.js';
import type { Logger } from './ports/logger.js';
import type { Scheduler } from './ports/scheduler.js';
import type { Store, StoreVersion, StoreVersions, VersionQuery } from './ports/store.js';
import { checkVersionQuery } from './ports/store-checks.js';
import { type Profile, ProfileSession, type SessionOwner, sessionOf } from './profile.js';
import { ReleaseRequests } from './release-requests.js';
import {
  fillDefaults,
  latestSchema,
  migrateData,
  parseRecord,
  type TakeReason,
} from './rules/index.js';
import { Signal, within } from './signal.js';
import { SystemScheduler } from './system-scheduler.js';
import { runTrade } from './trade.js';

export interface LoadOptions {
  /** How long this load waits for a load or leave save of the same key on this server. */
  readonly handoffSeconds?: number;
}

export interface CloseResult {
  /** Keys released by the close. */
  readonly released: readonly string[];
  /** Keys still unreleased at the deadline (their locks age out or are handed over). */
  readonly unreleased: readonly string[];
}

interface LoadHow {
  readonly localWaitMs: number;
  readonly player?: HostPlayer;
  readonly cancelled: () => boolean;
}

export class DataDriver<T extends object> implements HandoffClient {
  readonly name: string;
  private readonly settings: Settings;
  private readonly store: Store;
  private readonly scheduler: Scheduler;
  private readonly logger: Logger;
  private readonly events: EventStream;
  private readonly createId: () => string;
  private readonly sessions = new Map<string, ProfileSession>();
  private readonly loads = new Map<string, LoadReservation>();
  private readonly local = new Signal();
  private readonly state: DriverState;
  private readonly requests: ReleaseRequests;
  private readonly owner: SessionOwner;
  private readonly identity: ServerIdentity;
  private readonly keys: DriverKeys;
  private handoffInstance: Handoff | undefined;
  private ownsHandoff = false;
  private host: Host<HostPlayer> | undefined;
  private detachHost: (() => void) | undefined;
  private closed = false;

  constructor(private readonly options: DataDriverOptions<T>) {
    this.settings = resolveSettings(options);
    this.name = this.settings.name;
    this.store = options.store;
    this.scheduler = options.scheduler ?? new SystemScheduler();
    this.logger = options.logger ?? consoleLogger();
    this.events = new EventStream(this.logger);
    this.createId = options.createId ?? (() => globalThis.crypto.randomUUID());
    this.keys = keysOf(this.name);
    const given = Handoff.isInstance(options.handoff) ? options.handoff : undefined;
    if (given && options.jobId !== undefined && options.jobId !== given.jobId) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `jobId ${options.jobId} differs from the handoff's ${given.jobId}`,
      );
    }
    this.identity = new ServerIdentity(this.store, this.name, this, options.jobId ?? given?.jobId);
    this.state = this.makeState();
    this.requests = new ReleaseRequests(this.state);
    this.owner = this.makeOwner();
    if (given) this.useHandoff(given, false);
  }

  /**
   * This server's id, as written into locks: the `jobId` option, else the handoff's, else the
   * host's once attached, else one random id per process. The first load fixes it.
   */
  get jobId(): string {
    return this.identity.jobId;
  }

  /** The handoff this driver uses, or `undefined` when handoff is off. */
  get handoff(): Handoff | undefined {
    return this.handoffInstance;
  }

  /** Subscribes to what this driver does. Returns a function that unsubscribes. */
  on(listener: EventListener): () => void {
    return this.events.on(listener);
  }

  /** The active profile of `key` on this server, if any. */
  profile(key: string): Profile<T> | undefined {
    checkProfileKey(key);
    const session = this.sessions.get(key);
    return session?.state === 'active' ? (session.profile as Profile<T>) : undefined;
  }

  /**
   * Loads `key` under this server's lock. Waits `options.handoffSeconds` (else
   * `localHandoffSeconds`, else 0) for a load or leave save of the key on this server, then
   * up to `lockWaitSeconds` for another server's lock; rejects with `Data.Locked` after that,
   * leaving the record untouched.
   */
  async load(key: string, options: LoadOptions = {}): Promise<Profile<T>> {
    const { handoffSeconds } = options;
    const localWaitMs =
      handoffSeconds === undefined
        ? (this.settings.localHandoffMs ?? 0)
        : checkSeconds('handoffSeconds', handoffSeconds) * 1000;
    const session = await this.loadSession(key, { localWaitMs, cancelled: () => false });
    return session.profile as Profile<T>;
  }

  /**
   * Ties profiles to a game server's players: a joining player's profile loads (or the
   * player is kicked when it cannot), a leaving player's profile is released. Turns handoff
   * on by the default rule. Returns a function that detaches.
   */
  attach<P extends HostPlayer>(host: Host<P>, options: AttachOptions<T, P> = {}): () => void {
    this.assertOpen();
    if (this.host)
      throw new DataDriverError(ErrorCode.InvalidConfig, `${this.name} is already attached`);
    if (host.jobId !== '' && !isWellFormedText(host.jobId)) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `the host's jobId ${JSON.stringify(host.jobId)} is not well-formed UTF-16; give each server an id without lone surrogates`,
      );
    }
    this.identity.attachTo(host.jobId);
    this.host = host as unknown as Host<HostPlayer>;
    this.turnOnDefaultHandoff(host.jobId);
    const players = new PlayerSessions(
      this.state,
      this.requests,
      (key, how) => this.loadSession(key, how),
      options,
    );
    const offAdded = host.onPlayerAdded((player) => void players.join(player));
    const offRemoving = host.onPlayerRemoving((player) => void players.leave(player));
    for (const player of host.players?.() ?? []) void players.join(player);
    this.detachHost = () => {
      offAdded();
      offRemoving();
      this.host = undefined;
      this.detachHost = undefined;
    };
    return this.detachHost;
  }

  /** The kept versions of `key`, newest first (the store must keep versions). */
  async versions(key: string, query: VersionQuery = {}): Promise<readonly StoreVersion[]> {
    checkProfileKey(key);
    // Checked here too: a store of another package may not check it.
    checkVersionQuery(query);
    return this.history().list(this.storeKey(key), query);
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
    const at = typeof time === 'number' ? time : time.getTime();
    if (Number.isNaN(at)) {
      // An invalid Date reads as NaN: refused here, not reported as "no version that old".
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        `restoreAt needs a time in ms or a valid Date, got ${String(time)}`,
      );
    }
    const history = this.history();
    const [version] = await history.list(this.storeKey(key), { before: at, limit: 1 });
    if (!version) throw versionNotFound(key, at);
    const profile = await this.load(key, options);
    const session = this.ownSession(profile);
    const kept = parseRecord(key, await history.read(this.storeKey(key), version.id));
    if (!kept) {
      await session.release();
      throw versionNotFound(key, at);
    }
    session.data = migrateData(key, kept.data, kept.meta.schema ?? 0, this.settings.migrations);
    await session.save('restore');
    this.state.emit({ type: 'profile.restored', key, versionTime: version.time });
    return profile;
  }

  /**
   * Erases `key` for a data-protection request: takes the lock as `load` does (a live holder
   * elsewhere is asked to release it, like a join), deletes the record and every kept
   * version, and leaves nothing a later load could bring back.
   */
  async erase(key: string, options: LoadOptions = {}): Promise<void> {
    checkProfileKey(key);
    const session = this.ownSession(await this.load(key, options));
    await session.erase();
    await this.options.store.versions?.purge(this.storeKey(key));
    this.state.emit({ type: 'profile.erased', key });
  }

  /**
   * Changes two profiles together or not at all. `apply` changes copies of both datas, which
   * replace the profiles' data once the trade commits; rejects with `Data.TradeFailed` when
   * it aborts, and neither profile changes.
   */
  async trade(a: Profile<T>, b: Profile<T>, apply: (a: T, b: T) => void): Promise<void> {
    this.assertOpen();
    const sessions = [this.ownSession(a), this.ownSession(b)] as const;
    if (sessions[0] === sessions[1]) {
      throw new DataDriverError(ErrorCode.InvalidArgument, 'a trade needs two different profiles');
    }
    for (const session of sessions) {
      if (session.state !== 'active') {
        throw new DataDriverError(
          ErrorCode.Inactive,
          `the profile of ${session.key} is not active`,
        );
      }
      if (session.trade)
        throw new DataDriverError(ErrorCode.TradeFailed, `${session.key} is already in a trade`);
    }
    const id = this.createId();
    const event = { key: sessions[0].key, trade: id, keys: sessions.map((s) => s.key) };
    const run = {
      id,
      journalKey: this.keys.journal(id),
      store: this.store,
      scheduler: this.scheduler,
      storeKey: (key: string) => this.storeKey(key),
      retryMs: this.timings.parkMaxSeconds * 1000,
      logger: this.logger,
    };
    try {
      await runTrade(run, sessions, (x, y) => apply(x as unknown as T, y as unknown as T));
      this.state.emit({ type: 'trade.committed', ...event });
    } catch (error) {
      this.state.emit({ type: 'trade.aborted', ...event });
      throw toDataDriverError(error, ErrorCode.TradeFailed, `trade ${id} failed`);
    }
  }

  /**
   * Shuts the driver down: cancels waiting loads, releases every profile, and resolves by
   * `deadlineSeconds` (default 10) with what was and was not released.
   */
  async close(options: { deadlineSeconds?: number } = {}): Promise<CloseResult> {
    const deadlineMs = checkSeconds('deadlineSeconds', options.deadlineSeconds ?? 10) * 1000;
    this.closed = true;
    for (const reservation of this.loads.values()) reservation.reply.notify();
    this.detachHost?.();
    const pending = [...this.sessions.values()];
    const released: string[] = [];
    const releases = pending.map((session) =>
      session.release().then(
        () => void released.push(session.key),
        () => undefined, // reported as profile.release-failed
      ),
    );
    await within(this.scheduler, Promise.all(releases), deadlineMs);
    const unreleased = pending.map((s) => s.key).filter((key) => !released.includes(key));
    if (unreleased.length > 0)
      this.emit({ type: 'driver.close-timeout', driver: this.name, keys: unreleased });
    await this.leaveHandoff();
    this.identity.release();
    return { released, unreleased };
  }

  /** @internal Profiles held or loading here: each adds to this server's publish budget. */
  get profileCount(): number {
    return this.sessions.size + this.loads.size;
  }

  /** @internal Routed by the handoff: another server asks for `key`. */
  receiveHandoffRequest(key: string, requester: string, token: string | undefined): void {
    this.requests.receive(key, requester, token);
  }

  /** @internal Routed by the handoff: the server this driver asked no longer holds `key`. */
  receiveHandoffReply(key: string): void {
    // Reported on arrival, whether or not a load still waits: a reply that comes after the
    // load already succeeded (a slow bus) is still worth seeing in the timeline.
    this.state.emit({ type: 'handoff.reply.received', key });
    this.loads.get(key)?.reply.notify();
  }

  private async loadSession(key: string, how: LoadHow): Promise<ProfileSession> {
    this.assertOpen();
    this.identity.use();
    const started = this.scheduler.now();
    this.state.emit({ type: 'load.started', key, session: how.player !== undefined });
    try {
      checkProfileKey(key); // inside: a refused key is reported as load.failed, like any other
      const reservation = this.reservation(how);
      // The key is reserved in the same tick as the check that finds it free: a second load
      // started meanwhile sees this one and waits for it, rather than racing it to the store.
      const reserve = () => void this.loads.set(key, reservation);
      const adopted = await waitOnThisServer(this.state, key, how.localWaitMs, reserve);
      if (adopted) adopted.player = how.player;
      const loaded = adopted
        ? { session: adopted, reason: 'adopted' as const }
        : await this.acrossServers(key, how, reservation);
      const waitedMs = this.scheduler.now() - started;
      this.state.emit({ type: 'load.loaded', key, reason: loaded.reason, waitedMs });
      return loaded.session;
    } catch (error) {
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, `load of ${key} failed`);
      this.state.emit({
        type: 'load.failed',
        key,
        waitedMs: this.scheduler.now() - started,
        error: failure,
      });
      throw failure;
    }
  }

  private reservation(how: LoadHow): LoadReservation {
    return {
      token: this.createId(),
      requesters: new Map(),
      cancelled: () => how.cancelled() || this.closed,
      reply: new Signal(),
    };
  }

  /** Loads from the store under `reservation`, which the local wait has already put in place. */
  private async acrossServers(
    key: string,
    how: LoadHow,
    reservation: LoadReservation,
  ): Promise<{ session: ProfileSession; reason: TakeReason }> {
    try {
      const acquired = await acquire({
        key,
        storeKey: this.storeKey(key),
        token: reservation.token,
        driverName: this.name,
        jobId: this.jobId,
        store: this.store,
        scheduler: this.scheduler,
        handoff: this.handoffInstance,
        times: this.settings,
        timings: this.timings,
        lockWaitMs: this.settings.lockWaitMs,
        defaults: this.settings.defaults,
        migrations: this.settings.migrations,
        reply: reservation.reply,
        journalKey: (id) => this.keys.journal(id),
        heldHere: (token) => this.sessions.get(key)?.token === token,
        cancelled: reservation.cancelled,
        emit: (event) => this.state.emit(event),
      });
      const data = fillDefaults(acquired.record.data, this.settings.defaults);
      const session = new ProfileSession(this.owner, {
        key,
        token: reservation.token,
        data,
        userIds: acquired.record.meta.userIds ?? [],
        player: how.player,
      });
      this.sessions.set(key, session);
      if (this.closed) {
        // The driver closed while this load was landing: give the lock straight back.
        await session.release().catch(() => undefined); // reported as profile.release-failed
        throw new DataDriverError(ErrorCode.Closed, `${this.name} closed while ${key} was loading`);
      }
      this.reportTakeover(key, acquired);
      return { session, reason: acquired.reason };
    } finally {
      this.loads.delete(key);
      this.local.notify();
      // Requests that came during the load are answered now that it has settled.
      for (const [requester, token] of reservation.requesters)
        this.requests.receive(key, requester, token);
    }
  }

  private reportTakeover(key: string, acquired: Acquired): void {
    if (acquired.from && acquired.reason !== 'own') {
      this.state.emit({ type: 'lock.taken', key, reason: acquired.reason, from: acquired.from });
    }
    if (acquired.recovered) {
      const outcome = acquired.recovered.outcome === 'committed' ? 'committed' : 'aborted';
      this.state.emit({ type: 'trade.recovered', key, trade: acquired.recovered.trade, outcome });
    }
  }

  private makeState(): DriverState {
    const driver = this;
    return {
      name: this.name,
      settings: this.settings,
      store: this.store,
      scheduler: this.scheduler,
      logger: this.logger,
      sessions: this.sessions,
      loads: this.loads,
      local: this.local,
      get jobId() {
        return driver.jobId;
      },
      get handoff() {
        return driver.handoffInstance;
      },
      get host() {
        return driver.host;
      },
      get closed() {
        return driver.closed;
      },
      emit: (event: ProfileEventPayload) =>
        this.emit({ ...event, driver: this.name } as EventPayload),
      storeKey: (key) => this.storeKey(key),
    };
  }

  private makeOwner(): SessionOwner {
    const driver = this;
    return {
      store: this.store,
      scheduler: this.scheduler,
      get jobId() {
        return driver.jobId;
      },
      get presenceFlag() {
        return driver.handoffInstance !== undefined;
      },
      autosaveMs: this.settings.autosaveMs,
      schema: latestSchema(this.settings.migrations),
      storeKey: (key) => this.storeKey(key),
      emit: (event) => this.state.emit(event),
      changed: () => this.local.notify(),
      deactivated: (session) => {
        if (this.sessions.get(session.key) === session) this.sessions.delete(session.key);
        this.requests.answer(session);
        this.local.notify();
      },
      lockLost: (session) => this.requests.kick(session, this.settings.kickMessages.lockLost),
    };
  }

  private turnOnDefaultHandoff(hostJobId: string): void {
    if (this.handoffInstance) return;
    const { store, messenger, presence, handoff, jobId } = this.options;
    const on = handoffByDefault({
      option: handoff === false ? 'off' : 'default',
      testJobId: jobId !== undefined,
      hostJobId,
      sharedStore: !store.processLocal,
      sharedMessenger: messenger !== undefined && !messenger.processLocal,
      sharedPresence: presence !== undefined && !presence.processLocal,
    });
    if (!on || !messenger || !presence) return;
    const shared = Handoff.shared(hostJobId, {
      messenger,
      presence,
      scheduler: this.scheduler,
      logger: this.logger,
      ...(this.options.handoffSigning ? { signing: this.options.handoffSigning } : {}),
      ...(this.options.handoffLimits ? { limits: this.options.handoffLimits } : {}),
    });
    this.useHandoff(shared, true);
  }

  private useHandoff(handoff: Handoff, owned: boolean): void {
    this.handoffInstance = handoff;
    this.ownsHandoff = owned;
    handoff.register(this);
    handoff.start(this.scheduler);
  }

  private async leaveHandoff(): Promise<void> {
    const handoff = this.handoffInstance;
    if (!handoff) return;
    handoff.unregister(this);
    if (this.ownsHandoff && handoff.clientCount === 0) await handoff.destroy();
  }

  private get timings() {
    return this.handoffInstance?.timings ?? this.settings.timings;
  }

  private storeKey(key: string): string {
    return this.keys.store(key);
  }

  private history(): StoreVersions {
    const { versions } = this.store;
    if (!versions) {
      throw new DataDriverError(
        ErrorCode.Misconfigured,
        `the store of ${this.name} keeps no versions`,
      );
    }
    return versions;
  }

  private ownSession(profile: Profile<T>): ProfileSession {
    const session = sessionOf(profile as Profile<object>);
    if (!session || this.sessions.get(session.key) !== session) {
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        'that profile is not held by this driver',
      );
    }
    return session;
  }

  private emit(event: EventPayload): void {
    this.events.emit({
      ...event,
      time: this.scheduler.now(),
      jobId: this.jobId,
    } as DataDriverEvent);
  }

  private assertOpen(): void {
    if (this.closed) throw new DataDriverError(ErrorCode.Closed, `${this.name} is closed`);
  }
}

function versionNotFound(key: string, at: number): DataDriverError {
  return new DataDriverError(
    ErrorCode.VersionNotFound,
    `no version of ${key} as old as ${new Date(at).toISOString()} is retained`,
    { details: { key, time: at } },
  );
}

function checkSeconds(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `${name} must be a non-negative number of seconds`,
    );
  }
  return value;
}
