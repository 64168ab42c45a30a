/**
 * One Colyseus server process as DataDriver's Host: a player is added when their client joins
 * a room of this process (`enter`, called from the room's onJoin) and removed once they have
 * left every room of it, whatever the number of rooms; `kick` makes each of their clients
 * leave with the message (a client still in onJoin has its join fail with it instead) and
 * reports the player removing at once.
 */
import { type Client, matchMaker, type Room } from '@colyseus/core';
import { DataDriverError, ErrorCode, type Host, type HostPlayer } from '@datadriver/core';
import { HostListeners } from '@datadriver/core/ports';
import { checkKickCode, closeReason, KICK_CLOSE_CODE } from './kick.js';
import { cancelReconnection, onClientClosed, watchRoom } from './room-lifecycle.js';

/** A kick's close code and message. */
interface Kick {
  readonly code: number;
  readonly message: string;
}

/** A player of this process: one per user id, whatever the number of rooms they are in. */
export interface ColyseusPlayer extends HostPlayer {
  /** Their user id (by default also their profile key). */
  readonly id: string;
  /** The close code and message of their kick, once they were kicked. */
  readonly kicked?: Kick;
  /** The rooms of this process they are in now, by room id. */
  rooms(): string[];
}

export interface ColyseusHostOptions {
  /** This server's id; the Colyseus process id (`matchMaker.processId`) when unset. */
  readonly jobId?: string;
  /** The close code of a kick (default `KICK_CLOSE_CODE`, 4100). */
  readonly kickCode?: number;
}

/** Colyseus's process id, undefined until a Colyseus `Server` exists. */
function processId(): string | undefined {
  return matchMaker.processId as string | undefined;
}

type Listener = (player: ColyseusPlayer) => void;

/** A client's onJoin succeeded: it is in `room` as `player`. */
export type JoinedListener = (room: Room, client: Client, player: ColyseusPlayer) => void;

/** One client in one room: `joining` until its onJoin succeeds. */
interface Membership {
  readonly room: Room;
  readonly client: Client;
  readonly player: Player;
  joining: boolean;
  /** The kick that came while joining: the client leaves with it should onJoin succeed. */
  leaveOnJoin?: Kick;
  stopWatchingClose: () => void;
}

class Player implements ColyseusPlayer {
  readonly memberships = new Set<Membership>();
  kicked?: Kick;

  constructor(readonly id: string) {}

  rooms(): string[] {
    return [...new Set([...this.memberships].map((m) => m.room.roomId))];
  }
}

/** The clients of one watched room, by session id. */
interface WatchedRoom {
  readonly members: Map<string, Membership>;
  readonly unwatch: () => void;
}

/** Closes a kicked client's connection to its room with the kick's code and message. */
function leaveKicked({ room, client }: Membership, { code, message }: Kick): void {
  // A room whose onLeave offers the kicked client a reconnection must not hold its seat.
  onClientClosed(client, () => cancelReconnection(room, client.sessionId, message));
  cancelReconnection(room, client.sessionId, message);
  client.leave(code, closeReason(message));
}

export class ColyseusHost implements Host<ColyseusPlayer> {
  private readonly kickCode: number;
  private readonly current = new Map<string, Player>();
  private readonly rooms = new Map<Room, WatchedRoom>();
  private readonly listeners = new HostListeners<ColyseusPlayer>();
  private readonly joinedListeners = new Set<JoinedListener>();

  constructor(private readonly options: ColyseusHostOptions = {}) {
    this.kickCode = checkKickCode(options.kickCode ?? KICK_CLOSE_CODE);
  }

  /** The jobId given, else the Colyseus process id (set once a Colyseus `Server` exists). */
  get jobId(): string {
    const jobId = this.options.jobId ?? processId();
    if (jobId === undefined) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        'no Colyseus process id yet: create the Colyseus Server before attaching, or pass jobId',
      );
    }
    return jobId;
  }

  /** True when `jobId` can be read now. */
  jobIdKnown(): boolean {
    return this.options.jobId !== undefined || processId() !== undefined;
  }

  /** Resolves once Colyseus has assigned this process its id (a `Server` was created). */
  static async jobIdReady(): Promise<void> {
    if (processId() !== undefined) return;
    await matchMaker.onReady.promise;
  }

  onPlayerAdded(listener: Listener): () => void {
    return this.listeners.onPlayerAdded(listener);
  }

  onPlayerRemoving(listener: Listener): () => void {
    return this.listeners.onPlayerRemoving(listener);
  }

  players(): Iterable<ColyseusPlayer> {
    return [...this.current.values()];
  }

  /** The player `userId` of this process, if they are in one of its rooms. */
  player(userId: string): ColyseusPlayer | undefined {
    return this.current.get(userId);
  }

  /** The player whose client this is, while that client is in a room of this process. */
  playerOf(room: Room, client: Client): ColyseusPlayer | undefined {
    return this.rooms.get(room)?.members.get(client.sessionId)?.player;
  }

  /** The clients of `player` in `room` whose onJoin has succeeded. */
  joinedClients(room: Room, player: ColyseusPlayer): Client[] {
    const members = this.rooms.get(room)?.members.values() ?? [];
    return [...members]
      .filter((membership) => membership.player === player && !membership.joining)
      .map((membership) => membership.client);
  }

  /** Calls `listener` each time a client's onJoin succeeds. Returns the unsubscribe. */
  onClientJoined(listener: JoinedListener): () => void {
    this.joinedListeners.add(listener);
    return () => this.joinedListeners.delete(listener);
  }

  /**
   * `client` is joining `room` as `userId` (its onJoin is running). Adds the player if this is
   * their first room here. Returns the player.
   */
  enter(room: Room, client: Client, userId: string): ColyseusPlayer {
    const watched = this.watch(room);
    const existing = watched.members.get(client.sessionId);
    if (existing) {
      if (existing.player.id === userId) return existing.player;
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        `client ${client.sessionId} already joined as another user`,
      );
    }
    const known = this.current.get(userId);
    const player = known ?? new Player(userId);
    const membership: Membership = {
      room,
      client,
      player,
      joining: true,
      // A client whose onJoin fails or who disconnects during it gets no 'leave' from Colyseus.
      stopWatchingClose: onClientClosed(client, () => {
        if (membership.joining) this.exit(membership);
      }),
    };
    watched.members.set(client.sessionId, membership);
    player.memberships.add(membership);
    if (!known) {
      this.current.set(userId, player);
      this.listeners.added(player);
    }
    return player;
  }

  kick(player: ColyseusPlayer, message: string): void {
    const kicked = this.current.get(player.id);
    if (kicked !== player) return; // already gone: it was reported removing then
    kicked.kicked = { code: this.kickCode, message };
    for (const membership of [...kicked.memberships]) {
      if (membership.joining) {
        // Its onJoin awaits the profile: the join fails with the code and the whole message,
        // which a close frame would cut to 123 bytes. Should onJoin succeed all the same (the
        // profile had loaded), the client leaves once it has joined.
        kicked.memberships.delete(membership);
        membership.leaveOnJoin = kicked.kicked;
        continue;
      }
      this.forget(membership);
      leaveKicked(membership, kicked.kicked);
    }
    // Removing at once: the kicked connection may be a stale one that never answers, and
    // another server's join waits on this player's release save.
    this.remove(kicked);
  }

  private watch(room: Room): WatchedRoom {
    const known = this.rooms.get(room);
    if (known) return known;
    const members = new Map<string, Membership>();
    const unwatch = watchRoom(room, {
      joined: (sessionId) => {
        const membership = members.get(sessionId);
        if (!membership) return;
        membership.joining = false;
        membership.stopWatchingClose();
        if (membership.leaveOnJoin) {
          members.delete(sessionId);
          leaveKicked(membership, membership.leaveOnJoin);
          return;
        }
        for (const listener of [...this.joinedListeners]) {
          listener(room, membership.client, membership.player);
        }
      },
      left: (sessionId) => {
        const membership = members.get(sessionId);
        if (membership) this.exit(membership);
      },
      disposed: () => {
        for (const membership of [...members.values()]) this.exit(membership);
        this.rooms.get(room)?.unwatch();
        this.rooms.delete(room);
      },
    });
    const watched = { members, unwatch };
    this.rooms.set(room, watched);
    return watched;
  }

  /** The client left the room: the player is removed when it was their last room here. */
  private exit(membership: Membership): void {
    if (!this.forget(membership)) return;
    const { player } = membership;
    if (player.memberships.size === 0 && this.current.get(player.id) === player) {
      this.remove(player);
    }
  }

  private forget(membership: Membership): boolean {
    const members = this.rooms.get(membership.room)?.members;
    if (members?.get(membership.client.sessionId) === membership) {
      members.delete(membership.client.sessionId);
    }
    membership.stopWatchingClose();
    return membership.player.memberships.delete(membership);
  }

  private remove(player: Player): void {
    this.current.delete(player.id);
    this.listeners.removing(player);
  }
}
