/**
 * A DataDriver attached to one Colyseus server process: a room's onJoin awaits `join(this,
 * client)`, which adds the player (on their first room here) and resolves with their loaded
 * profile, or fails the join with the kick message when the load fails closed; message handlers
 * read `profileOf(this, client)`; `onMessageApplied(this, listener)` tells a room of a message
 * (a gift, a grant) applied to one of its clients' profiles.
 */
import type { Client, Room } from '@colyseus/core';
import {
  type AttachOptions,
  consoleLogger,
  type DataDriver,
  DataDriverError,
  ErrorCode,
  type Logger,
  type Profile,
} from '@datadriver/core';
import { AppliedMessages, type MessageAppliedListener } from './applied-messages.js';
import { ColyseusHost, type ColyseusHostOptions, type ColyseusPlayer } from './colyseus-host.js';
import {
  AUTH_FAILED_CODE,
  AUTH_FAILED_MESSAGE,
  ColyseusJoinError,
  KICK_CLOSE_CODE,
} from './kick.js';
import { checkClient, checkRoom } from './room-lifecycle.js';
import { checkedUserId, type UserIdOf, userIdFromAuth } from './user-id.js';

export interface ColyseusProfilesOptions<T extends object>
  extends ColyseusHostOptions,
    AttachOptions<T, ColyseusPlayer> {
  /** The user id of a client; by default from the room's `onAuth` result (`userIdFromAuth`). */
  readonly userIdOf?: UserIdOf;
  /** Where a refused join's reason goes (default `consoleLogger()`): the client is not told it. */
  readonly logger?: Logger;
}

/** A player's load: settled once, by the driver's onLoad or by the player's removal. */
interface LoadWait<T extends object> {
  readonly promise: Promise<Profile<T>>;
  resolve(profile: Profile<T>): void;
  reject(error: Error): void;
}

function loadWait<T extends object>(): LoadWait<T> {
  let resolve!: (profile: Profile<T>) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<Profile<T>>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => undefined); // a load nobody awaited may fail unobserved
  return { promise, resolve, reject };
}

export class ColyseusProfiles<T extends object> {
  /** The Host port this driver is attached to. */
  readonly host: ColyseusHost;
  /** Settles once the driver is attached (rejects when attaching failed). */
  readonly ready: Promise<void>;
  private readonly userIdOf: UserIdOf;
  private readonly logger: Logger;
  private readonly keyOf: (player: ColyseusPlayer) => string;
  private readonly loads = new Map<ColyseusPlayer, LoadWait<T>>();
  private readonly loaded = new Map<ColyseusPlayer, Profile<T>>();
  private readonly unsubscribe: Array<() => void>;
  private readonly appliedMessages: AppliedMessages<T>;

  /**
   * Ties `driver` to this Colyseus process. It attaches at once when the jobId is known (given,
   * or a Colyseus `Server` exists), else as soon as Colyseus has its process id (`ready`).
   */
  constructor(
    private readonly driver: DataDriver<T>,
    private readonly options: ColyseusProfilesOptions<T> = {},
  ) {
    this.host = new ColyseusHost(options);
    this.userIdOf = options.userIdOf ?? userIdFromAuth;
    this.logger = options.logger ?? consoleLogger();
    this.keyOf = options.keyOf ?? ((player) => player.id);
    this.appliedMessages = new AppliedMessages(this.host, this.logger, (key) => this.loadedOf(key));
    // Subscribed before the driver attaches, so a player's wait exists before their load starts.
    this.unsubscribe = [
      this.host.onPlayerAdded((player) => void this.loads.set(player, loadWait())),
      this.host.onPlayerRemoving((player) => this.settleRemoved(player)),
      this.host.onClientJoined((room, _client, player) => {
        const profile = this.loaded.get(player);
        if (profile) this.appliedMessages.joined(room, profile.key);
      }),
      driver.on((event) => {
        // A load cancelled by driver.close() is neither loaded nor kicked.
        if (event.type === 'load.failed' && DataDriverError.is(event.error, ErrorCode.Closed)) {
          this.refuseKey(event.key, event.error);
        }
        if (event.type === 'profile.saved') this.appliedMessages.saved(event.key);
      }),
    ];
    const known = this.host.jobIdKnown();
    if (known) this.attach();
    this.ready = known ? Promise.resolve() : ColyseusHost.jobIdReady().then(() => this.attach());
    this.ready.catch(() => undefined); // reported to every join
  }

  /**
   * Call in the room's onJoin: `client` joins `room`. Resolves with the player's profile once it
   * is loaded (at once when they are already in another room here). Rejects with a
   * `ColyseusJoinError` (which fails the join with its code and message) when the load fails
   * closed or the player is kicked meanwhile (the kick's code and whole message), or when the
   * client has no usable user id (`AUTH_FAILED_CODE` and `AUTH_FAILED_MESSAGE`; the reason goes
   * to the logger).
   */
  async join(room: Room, client: Client): Promise<Profile<T>> {
    checkRoom(room);
    checkClient(client);
    await this.ready;
    const userId = this.userIdFor(room, client);
    const player = this.host.enter(room, client, userId);
    const profile = this.loaded.get(player);
    if (profile?.active) return profile;
    const load = this.loads.get(player);
    if (!load) throw this.refusal(player);
    return load.promise;
  }

  /** The loaded profile of `client` in `room`, or `undefined` when it has none here. */
  profileOf(room: Room, client: Client): Profile<T> | undefined {
    const player = this.host.playerOf(room, client);
    const profile = player && this.loaded.get(player);
    return profile?.active ? profile : undefined;
  }

  /**
   * Call in the room's onCreate: `listener(client, message, profile)` runs when a message sent
   * to the profile of a client in `room` (`driver.send`, `profile.send`) was applied by the
   * options' `onMessage` and the save carrying it has landed, once per client of the player in
   * the room, so the room can tell them ("you got a gift"). A message applied at the player's
   * join (sent while they were offline) is told once their onJoin succeeded. Unsubscribed when
   * the room is disposed, or by the returned function. A listener that throws is warned about.
   */
  onMessageApplied(room: Room, listener: MessageAppliedListener<T>): () => void {
    return this.appliedMessages.listen(room, listener);
  }

  /** Detaches the driver; its profiles stay loaded until released (`driver.close()` does both). */
  detach(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** The client's checked user id, else a logged refusal that tells the client only 4215. */
  private userIdFor(room: Room, client: Client): string {
    try {
      return checkedUserId(this.userIdOf, client);
    } catch (error) {
      const reason = error instanceof Error ? error.message : `userIdOf threw a ${typeof error}`;
      this.logger.warn(
        `refused client ${client.sessionId} joining room ${room.roomId} (${AUTH_FAILED_CODE}): ${reason}`,
        { roomId: room.roomId, sessionId: client.sessionId, error },
      );
      throw new ColyseusJoinError(AUTH_FAILED_CODE, AUTH_FAILED_MESSAGE, { cause: error });
    }
  }

  private attach(): void {
    const { options } = this;
    this.unsubscribe.push(
      this.driver.attach(this.host, {
        keyOf: options.keyOf,
        onLoad: (profile, player) => {
          this.loaded.set(player, profile);
          this.loads.get(player)?.resolve(profile);
          options.onLoad?.(profile, player);
        },
        onLeave: options.onLeave,
        // Only when given: without it the driver's own onMessage applies messages, and no
        // room hears of them.
        ...(options.onMessage === undefined
          ? {}
          : {
              onMessage: (profile, message) => {
                options.onMessage?.(profile, message);
                this.appliedMessages.applied(profile.key, message);
              },
            }),
      }),
    );
  }

  /** The player's key, or undefined when `keyOf` throws (the driver refused the join then). */
  private keyIfAny(player: ColyseusPlayer): string | undefined {
    try {
      return this.keyOf(player);
    } catch {
      return undefined;
    }
  }

  private loadedOf(key: string): { player: ColyseusPlayer; profile: Profile<T> } | undefined {
    for (const [player, profile] of this.loaded) {
      if (profile.key === key) return { player, profile };
    }
    return undefined;
  }

  private settleRemoved(player: ColyseusPlayer): void {
    const key = this.loaded.get(player)?.key ?? this.keyIfAny(player);
    if (key !== undefined) this.appliedMessages.left(key);
    this.loads.get(player)?.reject(this.refusal(player));
    this.loads.delete(player);
    this.loaded.delete(player);
  }

  private refusal(player: ColyseusPlayer): ColyseusJoinError {
    const { kicked } = player;
    if (kicked) return new ColyseusJoinError(kicked.code, kicked.message);
    return new ColyseusJoinError(KICK_CLOSE_CODE, `${player.id} left before their profile loaded`);
  }

  private refuseKey(key: string, error: DataDriverError): void {
    for (const [player, load] of this.loads) {
      if (this.keyOf(player) !== key || this.loaded.has(player)) continue;
      load.reject(new ColyseusJoinError(KICK_CLOSE_CODE, error.message, { cause: error }));
    }
  }
}
