/**
 * How a kick reaches a Colyseus client: its connection to each room closes with a close code
 * and the kick message as the reason (`room.onLeave((code, reason) => ...)` on the client), and
 * a join still waiting for the profile fails with the same code and the whole message.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core';

/**
 * The default close code of a kick: in the application range, and none of the codes Colyseus
 * 0.16 uses itself (4000 consented leave, 4002 error, 4010 devMode restart, 4201 and up).
 */
export const KICK_CLOSE_CODE = 4100;

/** Colyseus's own code for a refused authentication, used when a client has no usable user id. */
export const AUTH_FAILED_CODE = 4215;

/**
 * What a client refused for its user id is told. The reason (a thrown `userIdOf`'s text among
 * them) goes to the server's logger only: it may hold what no client should see.
 */
export const AUTH_FAILED_MESSAGE = 'Authentication failed.';

/** A WebSocket close reason is at most 123 bytes of UTF-8. */
const MAX_REASON_BYTES = 123;
const ELLIPSIS = '…';

/** The kick message cut to what a close frame can carry, on a character boundary. */
export function closeReason(message: string): string {
  if (Buffer.byteLength(message) <= MAX_REASON_BYTES) return message;
  const room = MAX_REASON_BYTES - Buffer.byteLength(ELLIPSIS);
  let reason = '';
  let bytes = 0;
  for (const character of message) {
    const size = Buffer.byteLength(character);
    if (bytes + size > room) break;
    reason += character;
    bytes += size;
  }
  return reason + ELLIPSIS;
}

/** Checks a configured close code: WebSocket's application range is 3000 to 4999. */
export function checkKickCode(code: number): number {
  if (!Number.isInteger(code) || code < 3000 || code > 4999) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `kickCode must be a WebSocket application close code (3000 to 4999), got ${String(code)}`,
    );
  }
  return code;
}

/**
 * Thrown by `ColyseusProfiles.join` when the player cannot play here. Colyseus sends `code` and
 * `message` to the client, whose join rejects with them.
 */
export class ColyseusJoinError extends Error {
  override readonly name = 'ColyseusJoinError';

  constructor(
    /** The numeric error code Colyseus sends to the client. */
    readonly code: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
