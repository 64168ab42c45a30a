/**
 * The user id of a Colyseus client, by default from what the room's `onAuth` returned
 * (`client.auth`): a string, or an object's own `userId` or `id`. Never from join options,
 * which the client chooses.
 */
import type { Client } from '@colyseus/core';
import { DataDriverError, ErrorCode } from '@datadriver/core';

export type UserIdOf = (client: Client) => string;

function ownField(auth: object, name: 'userId' | 'id'): unknown {
  return Object.hasOwn(auth, name) ? (auth as Record<string, unknown>)[name] : undefined;
}

/** Reads `client.auth`: a string, or an object whose own `userId` (else `id`) is one. */
export const userIdFromAuth: UserIdOf = (client) => {
  const auth: unknown = client.auth;
  if (typeof auth === 'string') return auth;
  if (typeof auth === 'object' && auth !== null) {
    const id = ownField(auth, 'userId') ?? ownField(auth, 'id');
    if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
    if (typeof id === 'string') return id;
  }
  return '';
};

/** The checked user id of `client`: a non-empty string, else `Data.InvalidArgument`. */
export function checkedUserId(userIdOf: UserIdOf, client: Client): string {
  const id: unknown = userIdOf(client);
  if (typeof id !== 'string' || id === '') {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `no user id for client ${client.sessionId}: onAuth must return one (a string, or an object with a userId or id), or pass userIdOf`,
    );
  }
  return id;
}
