/**
 * The user id of a Colyseus client, by default from what the room's `onAuth` returned
 * (`client.auth`): a string, or an object's own `userId` or `id`. Never from join options,
 * which the client chooses.
 */
import type { Client } from '@colyseus/core';
import { DataDriverError, ErrorCode } from '@datadriver/core';

export type UserIdOf = (client: Client) => string;

/**
 * The most UTF-8 bytes a user id may take: by default it is the profile's store key, and it
 * travels in every handoff message about the player (core caps keys at the same size).
 */
export const MAX_USER_ID_BYTES = 256;

function ownField(auth: object, name: 'userId' | 'id'): unknown {
  return Object.hasOwn(auth, name) ? (auth as Record<string, unknown>)[name] : undefined;
}

/**
 * Reads `client.auth`: a string, or an object's own `userId` when it has one (whatever its
 * value), else its own `id`; either a string or a safe integer.
 */
export const userIdFromAuth: UserIdOf = (client) => {
  const auth: unknown = client.auth;
  if (typeof auth === 'string') return auth;
  if (typeof auth === 'object' && auth !== null) {
    // A present but unusable userId is refused, never replaced by id: the two may name
    // different accounts.
    const id = ownField(auth, Object.hasOwn(auth, 'userId') ? 'userId' : 'id');
    if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
    if (typeof id === 'string') return id;
  }
  return '';
};

/** A lone surrogate cannot be stored as UTF-8, nor compared with what the store gives back. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function refusal(sessionId: string, why: string): DataDriverError {
  return new DataDriverError(ErrorCode.InvalidArgument, `user id of client ${sessionId} ${why}`);
}

/**
 * The checked user id of `client`: a non-empty, well-formed string of at most
 * `MAX_USER_ID_BYTES` UTF-8 bytes, else `Data.InvalidArgument` (which never quotes the id).
 */
export function checkedUserId(userIdOf: UserIdOf, client: Client): string {
  const id: unknown = userIdOf(client);
  const { sessionId } = client;
  if (typeof id !== 'string' || id === '') {
    throw refusal(
      sessionId,
      'is missing: onAuth must return one (a string, or an object with a userId or id), or pass userIdOf',
    );
  }
  const bytes = Buffer.byteLength(id);
  if (bytes > MAX_USER_ID_BYTES) {
    throw refusal(sessionId, `is ${bytes} UTF-8 bytes, over the ${MAX_USER_ID_BYTES} allowed`);
  }
  if (LONE_SURROGATE.test(id)) {
    throw refusal(sessionId, 'is not well-formed UTF-16 (it holds a lone surrogate)');
  }
  return id;
}
