/**
 * Rooms reacting to a message applied to a player's profile (`profiles.onMessageApplied`). The
 * driver's `onMessage` applies it to the data; it is durable once the save that carries it
 * (with the message's id) has landed, and only then are the rooms told: each listening room
 * the player is in, once per client of theirs there. A message applied before the player is in
 * any listening room (at their join, when they were offline) is told to the first listening
 * room a client of theirs finishes joining. Nothing is told twice, and what is untold when the
 * player leaves this process is dropped: the data has it, and the next server does not apply
 * it again.
 */
import type { Client, Room } from '@colyseus/core';
import type { Logger, Profile, ProfileMessage } from '@datadriver/core';
import type { ColyseusHost, ColyseusPlayer } from './colyseus-host.js';
import { checkRoom, watchRoom } from './room-lifecycle.js';

/** A room's reaction to a message applied to the profile of one of its clients. */
export type MessageAppliedListener<T extends object> = (
  client: Client,
  message: ProfileMessage,
  profile: Profile<T>,
) => void;

interface RoomListeners<T extends object> {
  readonly listeners: Set<MessageAppliedListener<T>>;
  readonly unwatch: () => void;
}

export class AppliedMessages<T extends object> {
  private readonly rooms = new Map<Room, RoomListeners<T>>();
  /** Applied by `onMessage`, not yet known saved, by profile key. */
  private readonly unsaved = new Map<string, ProfileMessage[]>();
  /** Saved, not yet told to any room, by profile key. */
  private readonly untold = new Map<string, ProfileMessage[]>();

  constructor(
    private readonly host: ColyseusHost,
    private readonly logger: Logger,
    /** The loaded profile of `key` here and its player, if any. */
    private readonly loadedOf: (
      key: string,
    ) => { readonly player: ColyseusPlayer; readonly profile: Profile<T> } | undefined,
  ) {}

  /** `room` hears messages applied to its clients' profiles until the returned unsubscribe. */
  listen(room: Room, listener: MessageAppliedListener<T>): () => void {
    checkRoom(room);
    let entry = this.rooms.get(room);
    if (!entry) {
      const unwatch = watchRoom(room, {
        joined: () => undefined,
        left: () => undefined,
        disposed: () => this.forgetRoom(room),
      });
      entry = { listeners: new Set(), unwatch };
      this.rooms.set(room, entry);
    }
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const subscription: MessageAppliedListener<T> = (...args) => listener(...args);
    entry.listeners.add(subscription);
    return () => {
      entry.listeners.delete(subscription);
      if (entry.listeners.size === 0) this.forgetRoom(room);
    };
  }

  /** `onMessage` applied `message` to the data of `key`. */
  applied(key: string, message: ProfileMessage): void {
    this.unsaved.set(key, [...(this.unsaved.get(key) ?? []), message]);
  }

  /** A save of `key` landed: what was applied before it is durable. */
  saved(key: string): void {
    const messages = this.unsaved.get(key);
    if (!messages) return;
    this.unsaved.delete(key);
    this.untold.set(key, [...(this.untold.get(key) ?? []), ...messages]);
    this.tell(key);
  }

  /** A client of `player` finished joining `room`: it hears what no room was told yet. */
  joined(room: Room, key: string): void {
    if (this.rooms.has(room)) this.tell(key, room);
  }

  /** The player of `key` left this process. */
  left(key: string): void {
    this.unsaved.delete(key);
    this.untold.delete(key);
  }

  /** Tells the listening rooms (or only `only`) the player of `key` is in, if any. */
  private tell(key: string, only?: Room): void {
    const messages = this.untold.get(key);
    const loaded = this.loadedOf(key);
    if (!messages || !loaded?.profile.active) return;
    const audience = [...this.rooms]
      .filter(([room]) => only === undefined || room === only)
      .map(([room, entry]) => ({ entry, clients: this.host.joinedClients(room, loaded.player) }))
      .filter(({ clients }) => clients.length > 0);
    if (audience.length === 0) return; // the first listening room they join hears it
    this.untold.delete(key);
    for (const { entry, clients } of audience) {
      for (const listener of [...entry.listeners]) {
        for (const client of clients) {
          for (const message of messages) this.call(listener, client, message, loaded.profile);
        }
      }
    }
  }

  private call(
    listener: MessageAppliedListener<T>,
    client: Client,
    message: ProfileMessage,
    profile: Profile<T>,
  ): void {
    try {
      listener(client, message, profile);
    } catch (error) {
      // A room's bug must not keep the other rooms, or the message's other clients, from hearing it.
      this.logger.warn(
        `a room's onMessageApplied listener threw on message ${message.id} of ${profile.key}: ${error instanceof Error ? error.message : String(error)}`,
        { key: profile.key, id: message.id, error },
      );
    }
  }

  private forgetRoom(room: Room): void {
    this.rooms.get(room)?.unwatch();
    this.rooms.delete(room);
  }
}
