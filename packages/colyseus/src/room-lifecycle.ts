/**
 * What this package reads of a Colyseus 0.16 room beyond its documented hooks, kept in this one
 * file: the room's lifecycle emitter (`_events`, which Colyseus's own matchMaker follows: `join`
 * once a client's onJoin has succeeded, `leave` once a client has left for good, after any
 * reconnection wait), and its pending reconnections (`_reconnections`), so that a seat held for
 * a kicked player can be given up.
 */
import type { Client, Room } from '@colyseus/core';
import { DataDriverError, ErrorCode } from '@datadriver/core';

interface Emitter {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

interface Reconnection {
  reject(reason?: unknown): void;
}

interface RoomInternals {
  readonly roomId: string;
  readonly _events: Emitter;
  readonly _reconnections?: Record<string, readonly [string, Reconnection]>;
}

interface ClientRef {
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

export interface RoomEvents {
  /** The client's onJoin succeeded: it is in the room. */
  joined(sessionId: string): void;
  /** The client left the room for good (after any reconnection wait). */
  left(sessionId: string): void;
  /** The room was disposed. */
  disposed(): void;
}

function isEmitter(value: unknown): value is Emitter {
  const emitter = value as Partial<Emitter> | null;
  return typeof emitter?.on === 'function' && typeof emitter.off === 'function';
}

/** Refuses anything that is not a Colyseus 0.16 room, rather than misreading it later. */
export function checkRoom(room: unknown): asserts room is Room {
  const internals = room as Partial<RoomInternals> | null;
  if (typeof internals?.roomId !== 'string' || !isEmitter(internals._events)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      'expected a Colyseus 0.16 room (this in a Room method): no roomId or lifecycle events',
    );
  }
}

/** Refuses anything that is not a Colyseus client with a session and a connection. */
export function checkClient(client: unknown): asserts client is Client {
  const candidate = client as Partial<Client> | null;
  const ref = candidate?.ref as Partial<ClientRef> | undefined;
  if (
    typeof candidate?.sessionId !== 'string' ||
    candidate.sessionId === '' ||
    typeof ref?.once !== 'function'
  ) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      'expected a Colyseus client (the client given to onJoin): no sessionId or connection',
    );
  }
}

/** Follows `room`'s clients joining and leaving for good. Returns the unsubscribe. */
export function watchRoom(room: Room, events: RoomEvents): () => void {
  const emitter = (room as unknown as RoomInternals)._events;
  const joined = (client: Client) => events.joined(client.sessionId);
  const left = (client: Client) => events.left(client.sessionId);
  const disposed = () => events.disposed();
  emitter.on('join', joined);
  emitter.on('leave', left);
  emitter.on('disconnect', disposed);
  return () => {
    emitter.off('join', joined);
    emitter.off('leave', left);
    emitter.off('disconnect', disposed);
  };
}

/** Calls `listener` once the client's connection closes. Returns the unsubscribe. */
export function onClientClosed(client: Client, listener: () => void): () => void {
  const ref = client.ref as unknown as ClientRef;
  ref.once('close', listener);
  return () => ref.off('close', listener);
}

/** Rejects a reconnection `room` holds for `sessionId`, if any, so its seat is given up. */
export function cancelReconnection(room: Room, sessionId: string, reason: string): boolean {
  const pending = (room as unknown as RoomInternals)._reconnections ?? {};
  let cancelled = false;
  for (const [waiting, reconnection] of Object.values(pending)) {
    if (waiting !== sessionId) continue;
    reconnection.reject(new Error(reason));
    cancelled = true;
  }
  return cancelled;
}
