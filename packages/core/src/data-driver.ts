/**
 * DataDriver: player profiles under a session lock. `load` runs the same-server rules
 * (wait for a local load or leave save, adopt a retained profile), then takes the lock
 * across servers (`acquire`); `attach` ties loads and releases to a game server's players;
 * the handoff routes other servers' release requests here.
 */
import { acquire } from './acquire.js';
import { consoleLogger } from './console-logger.js';
import { DataDriverError, ErrorCode, toDataDriverError } from './errors.js';
import {
  type DataDriverEvent,
  type EventListener,
  type EventPayload,
  EventStream,
  type ProfileEventPayload,
  type RequestAction,
} from './events.js';
import { Handoff, type HandoffClient } from './handoff.js';
import { type DataDriverOptions, resolveSettings, type Settings } from './options.js';
import type { Host, HostPlayer } from './ports/host.js';
import type { Logger } from './ports/logger.js';
import type { Scheduler } from './ports/scheduler.js';
import type { Store } from './ports/store.js';
import { type Profile, ProfileSession, type SessionOwner, sessionOf } from './profile.js';
import {
  fillDefaults,
  parseRecord,
  releasedRecord,
  type TakeReason,
  toStoreRecord,
} from './rules/index.js';
import { Signal, within } from './signal.js';
import { SystemScheduler } from './system-scheduler.js';
import type { HandoffTimings } from './timings.js';
import { runTrade } from './trade.js';

export interface LoadOptions {
  /** How long this load waits for a load or leave save of the same key on this server. */
  readonly handoffSeconds?: number;
}

export interface AttachOptions<T extends object, P extends HostPlayer> {
  /** The profile key of a player; `player.id` by default. */
  readonly keyOf?: (player: P) => string;
  /** Called once a joining player's profile is loaded. */
  readonly onLoad?: (profile: Profile<T>, player: P) => void;
  /** The game's leave cleanups, run before the release save (also after a kick). */
  readonly onLeave?: (profile: Profile<T>, player: P) => void | Promise<void>;
}

export interface CloseResult {
  /** Keys released by the close. */
  readonly released: readonly string[];
  /** Keys still unreleased at the deadline (their locks age out or are handed over). */
  readonly unreleased: readonly string[];
}

interface LoadReservation {
  readonly token: string;
  /** Requests that arrived while the load was in flight: answered when it settles. */
  readonly requesters: Map<string, string | undefined>;
  readonly cancelled: () => boolean;
  readonly reply: Signal;
}

interface PlayerEntry<P extends HostPlayer> {
  readonly player: P;
  readonly key: string;
  left: boolean;
}

/** One id per process run: a server without a host or a test jobId still needs one. */
const processJobId = globalThis.crypto.randomUUID();

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
  /** Same-server waits park here and re-check when any session or load changes. */
  private readonly local = new Signal();
  private readonly owner: SessionOwner;
  private serverId: string | undefined;
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
    this.serverId = options.jobId;
    this.owner = this.makeOwner();
    if (Handoff.isInstance(options.handoff)) this.useHandoff(options.handoff, false);
  }

  /** This server's id, as written into locks. */
  get jobId(): string {
    this.serverId ??= processJobId;
    return this.serverId;
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
    const session = await this.loadSession(key, {
      localWaitMs:
        handoffSeconds === undefined
          ? (this.settings.localHandoffMs ?? 0)
          : checkSeconds('handoffSeconds', handoffSeconds) * 1000,
      cancelled: () => this.closed,
    });
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
    this.host = host as unknown as Host<HostPlayer>;
    this.serverId ??= host.jobId || processJobId;
    this.turnOnDefaultHandoff(host.jobId);
    const players = new Map<P, PlayerEntry<P>>();
    const join = (player: P): void => void this.join(player, players, options);
    const leave = (player: P): void => void this.leave(player, players, options);
    const offAdded = host.onPlayerAdded(join);
    const offRemoving = host.onPlayerRemoving(leave);
    for (const player of host.players?.() ?? []) join(player);
    this.detachHost = () => {
      offAdded();
      offRemoving();
      this.host = undefined;
      this.detachHost = undefined;
    };
    return this.detachHost;
  }

  /**
   * Changes two profiles together or not at all. `apply` changes copies of both datas, which
   * replace the profiles' data once the trade commits; rejects with `Data.TradeFailed` when
   * it aborts, and neither profile changes.
   */
  async trade(a: Profile<T>, b: Profile<T>, apply: (a: T, b: T) => void): Promise<void> {
    this.assertOpen();
    const first = this.ownSession(a);
    const second = this.ownSession(b);
    if (first === second) {
      throw new DataDriverError(ErrorCode.InvalidArgument, 'a trade needs two different profiles');
    }
    for (const session of [first, second]) {
      if (session.state !== 'active') throw inactive(session.key);
      if (session.trade) {
        throw new DataDriverError(ErrorCode.TradeFailed, `${session.key} is already in a trade`);
      }
    }
    const id = this.createId();
    const keys = [first.key, second.key];
    try {
      await runTrade(
        {
          id,
          journalKey: this.journalKey(id),
          store: this.store,
          scheduler: this.scheduler,
          storeKey: (key) => this.storeKey(key),
          retryMs: this.timings.parkMaxSeconds * 1000,
        },
        [first, second],
        (x, y) => apply(x as unknown as T, y as unknown as T),
      );
      this.emit({ type: 'trade.committed', driver: this.name, key: first.key, trade: id, keys });
    } catch (error) {
      this.emit({ type: 'trade.aborted', driver: this.name, key: first.key, trade: id, keys });
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
    if (unreleased.length > 0) {
      this.emit({ type: 'driver.close-timeout', driver: this.name, keys: unreleased });
    }
    await this.leaveHandoff();
    return { released, unreleased };
  }

  /** @internal Routed by the handoff: another server asks for `key`. */
  receiveHandoffRequest(key: string, requester: string, token: string | undefined): void {
    const reservation = this.loads.get(key);
    if (reservation) {
      reservation.requesters.set(requester, token);
      this.emitRequest(key, requester, token, 'await-load');
      return;
    }
    const session = this.sessions.get(key);
    if (
      !session ||
      session.state === 'inactive' ||
      (token !== undefined && token !== session.token)
    ) {
      this.emitRequest(key, requester, token, 'reply');
      void this.replyFree(key, requester, token);
      return;
    }
    session.requesters.add(requester);
    if (session.leaving || session.ending) {
      const retry = session.releaseFailed && session.writesInFlight === 0;
      this.emitRequest(key, requester, token, retry ? 'retry-release' : 'await-release');
      if (retry) session.release().catch(() => undefined); // reported as profile.release-failed
    } else if (session.player && this.host) {
      this.emitRequest(key, requester, token, 'kick');
      this.kick(session, this.settings.kickMessages.joinedElsewhere);
    } else {
      this.emitRequest(key, requester, token, 'release');
      session.release().catch(() => undefined); // reported as profile.release-failed
    }
  }

  /** @internal Routed by the handoff: the server this driver asked no longer holds `key`. */
  receiveHandoffReply(key: string): void {
    this.loads.get(key)?.reply.notify();
  }

  private async loadSession(
    key: string,
    how: { localWaitMs: number; player?: HostPlayer; cancelled: () => boolean },
  ): Promise<ProfileSession> {
    this.assertOpen();
    if (typeof key !== 'string' || key === '') {
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        'a profile key must be a non-empty string',
      );
    }
    const started = this.scheduler.now();
    this.emit({ type: 'load.started', driver: this.name, key, session: how.player !== undefined });
    try {
      const adopted = await this.sameServer(key, how.localWaitMs);
      if (adopted) adopted.player = how.player;
      const loaded = adopted
        ? { session: adopted, reason: 'adopted' as const }
        : await this.acrossServers(key, how);
      const waitedMs = this.scheduler.now() - started;
      this.emit({ type: 'load.loaded', driver: this.name, key, reason: loaded.reason, waitedMs });
      return loaded.session;
    } catch (error) {
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, `load of ${key} failed`);
      this.emit({
        type: 'load.failed',
        driver: this.name,
        key,
        waitedMs: this.scheduler.now() - started,
        error: failure,
      });
      throw failure;
    }
  }

  /**
   * The same-server rules: wait (event-driven) while the key is loading here or a leaving
   * profile is still saving, then adopt a retained profile whose leave save failed.
   */
  private async sameServer(key: string, waitMs: number): Promise<ProfileSession | undefined> {
    const deadline = this.scheduler.now() + waitMs;
    let reported = false;
    for (;;) {
      const session = this.sessions.get(key);
      const loading = this.loads.has(key);
      if (!loading && (!session || session.state === 'inactive')) return undefined;
      if (!loading && session?.adoptable) {
        const outcome = await session.adopt();
        this.emit({ type: 'profile.adopted', driver: this.name, key, outcome });
        if (outcome !== 'lost') return session;
        continue;
      }
      const reason = loading ? 'local-load' : session?.leaving ? 'local-release' : 'local-session';
      const remaining = deadline - this.scheduler.now();
      if (remaining <= 0) {
        throw new DataDriverError(
          ErrorCode.Locked,
          `profile is locked by this server (key ${key}, server ${this.jobId}, ${reason.replace('local-', '')} in progress)`,
          { details: { key, reason } },
        );
      }
      if (!reported) this.emit({ type: 'load.waiting', driver: this.name, key, reason });
      reported = true;
      await this.local.wait(this.scheduler, remaining);
    }
  }

  private async acrossServers(
    key: string,
    how: { player?: HostPlayer; cancelled: () => boolean },
  ): Promise<{ session: ProfileSession; reason: TakeReason }> {
    const reservation: LoadReservation = {
      token: this.createId(),
      requesters: new Map(),
      cancelled: () => how.cancelled() || this.closed,
      reply: new Signal(),
    };
    this.loads.set(key, reservation);
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
        reply: reservation.reply,
        journalKey: (id) => this.journalKey(id),
        heldHere: (token) => this.sessions.get(key)?.token === token,
        cancelled: reservation.cancelled,
        emit: (event) => this.emit({ ...event, driver: this.name } as EventPayload),
      });
      const data = fillDefaults(acquired.record.data, this.settings.defaults);
      const session = new ProfileSession(this.owner, key, reservation.token, data, how.player);
      this.sessions.set(key, session);
      if (this.closed) {
        // The driver closed while this load was landing: give the lock straight back.
        await session.release().catch(() => undefined); // reported as profile.release-failed
        throw new DataDriverError(ErrorCode.Closed, `${this.name} closed while ${key} was loading`);
      }
      if (acquired.from && acquired.reason !== 'own') {
        this.emit({
          type: 'lock.taken',
          driver: this.name,
          key,
          reason: acquired.reason,
          from: acquired.from,
        });
      }
      if (acquired.recovered) {
        const { trade, outcome } = acquired.recovered;
        this.emit({
          type: 'trade.recovered',
          driver: this.name,
          key,
          trade,
          outcome: outcome === 'committed' ? 'committed' : 'aborted',
        });
      }
      return { session, reason: acquired.reason };
    } finally {
      this.loads.delete(key);
      this.local.notify();
      // Requests that came during the load are answered now that it has settled.
      for (const [requester, token] of reservation.requesters) {
        this.receiveHandoffRequest(key, requester, token);
      }
    }
  }

  private async join<P extends HostPlayer>(
    player: P,
    players: Map<P, PlayerEntry<P>>,
    options: AttachOptions<T, P>,
  ): Promise<void> {
    const key = options.keyOf ? options.keyOf(player) : player.id;
    const entry: PlayerEntry<P> = { player, key, left: false };
    players.set(player, entry);
    const localMs = this.settings.localHandoffMs ?? this.settings.lockWaitMs;
    let session: ProfileSession;
    try {
      session = await this.loadSession(key, {
        localWaitMs: localMs,
        player,
        cancelled: () => entry.left,
      });
    } catch (error) {
      if (entry.left || this.closed) return;
      const messages = this.settings.kickMessages;
      const locked = DataDriverError.is(error, ErrorCode.Locked);
      this.kickPlayer(key, player, locked ? messages.locked : messages.loadFailed);
      return;
    }
    if (entry.left) {
      await session.release().catch(() => undefined); // reported as profile.release-failed
      return;
    }
    this.runHook('onLoad', () => options.onLoad?.(session.profile as Profile<T>, player));
  }

  private async leave<P extends HostPlayer>(
    player: P,
    players: Map<P, PlayerEntry<P>>,
    options: AttachOptions<T, P>,
  ): Promise<void> {
    const entry = players.get(player);
    if (!entry) return;
    entry.left = true;
    players.delete(player);
    this.loads.get(entry.key)?.reply.notify(); // a waiting load notices it is cancelled
    const session = this.sessions.get(entry.key);
    if (!session || session.player !== player || session.state !== 'active') return;
    try {
      await options.onLeave?.(session.profile as Profile<T>, player);
    } catch (error) {
      this.logger.error(`onLeave threw for ${entry.key}: ${String(error)}`);
    }
    await session.release().catch(() => undefined); // reported as profile.release-failed
  }

  private kick(session: ProfileSession, message: string): void {
    if (!session.player) return;
    session.ending = true;
    this.kickPlayer(session.key, session.player, message);
  }

  private kickPlayer(key: string, player: HostPlayer, message: string): void {
    this.emit({ type: 'profile.kicked', driver: this.name, key, player: player.id, message });
    this.host?.kick(player, message);
  }

  /**
   * Tells a requester this server does not hold `key`. A lock of this server under the
   * requester's token that no session holds (a load whose response was lost) is released
   * first, or the requester would find it again and wait it out by age.
   */
  private async replyFree(
    key: string,
    requester: string,
    token: string | undefined,
  ): Promise<void> {
    if (token !== undefined && this.sessions.get(key)?.token !== token) {
      await this.store
        .update(this.storeKey(key), (current) => {
          const record = parseRecord(key, current);
          const lock = record?.meta.lock;
          if (!record || lock?.jobId !== this.jobId || lock.token !== token) return undefined;
          return toStoreRecord(releasedRecord(record, record.data, token));
        })
        .catch((error) =>
          this.logger.warn(`could not clear an orphaned lock of ${key}: ${String(error)}`),
        );
    }
    await this.sendReply(key, requester);
  }

  private async sendReply(key: string, requester: string): Promise<void> {
    const handoff = this.handoffInstance;
    if (!handoff) return;
    this.emit({ type: 'handoff.reply.sent', driver: this.name, key, requester });
    await handoff.reply(this.name, key, requester).catch((error) => {
      this.logger.warn(`handoff reply for ${key} to ${requester} failed: ${String(error)}`);
    });
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
      storeKey: (key) => this.storeKey(key),
      emit: (event: ProfileEventPayload) =>
        this.emit({ ...event, driver: this.name } as EventPayload),
      changed: () => this.local.notify(),
      deactivated: (session) => {
        if (this.sessions.get(session.key) === session) this.sessions.delete(session.key);
        for (const requester of session.requesters) void this.sendReply(session.key, requester);
        session.requesters.clear();
        this.local.notify();
      },
      lockLost: (session) => this.kick(session, this.settings.kickMessages.lockLost),
    };
  }

  /** The "When it is on" rule for a driver attached to `host`. */
  private turnOnDefaultHandoff(hostJobId: string): void {
    if (this.handoffInstance || this.options.handoff === false) return;
    if (this.options.jobId !== undefined || hostJobId === '') return;
    const { store, messenger, presence } = this.options;
    if (store.processLocal || !messenger || !presence) return;
    if (messenger.processLocal || presence.processLocal) return;
    const handoff = Handoff.shared(hostJobId, {
      messenger,
      presence,
      scheduler: this.scheduler,
      logger: this.logger,
    });
    this.useHandoff(handoff, true);
  }

  private useHandoff(handoff: Handoff, owned: boolean): void {
    if (this.options.jobId !== undefined && this.options.jobId !== handoff.jobId) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `jobId ${this.options.jobId} differs from the handoff's ${handoff.jobId}`,
      );
    }
    this.serverId = handoff.jobId;
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

  private get timings(): HandoffTimings {
    return this.handoffInstance?.timings ?? this.settings.timings;
  }

  private storeKey(key: string): string {
    return `${this.name}/${key}`;
  }

  private journalKey(id: string): string {
    return `${this.name}#trade/${id}`;
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

  private emitRequest(
    key: string,
    requester: string,
    token: string | undefined,
    action: RequestAction,
  ): void {
    this.emit({
      type: 'handoff.request.received',
      driver: this.name,
      key,
      requester,
      ...(token === undefined ? {} : { token }),
      action,
    });
  }

  private runHook(name: string, hook: () => void): void {
    try {
      hook();
    } catch (error) {
      this.logger.error(`${name} threw: ${String(error)}`);
    }
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

function inactive(key: string): DataDriverError {
  return new DataDriverError(ErrorCode.Inactive, `the profile of ${key} is not active`);
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
