/**
 * The versions a store stamps its writes with (`StoreSnapshot.version`): a random prefix drawn
 * once per process, then a counter. Unique across processes and restarts like a random id per
 * write, without drawing random bytes on every write.
 */
import { randomBytes } from 'node:crypto';

/** 72 random bits: two processes drawing the same prefix is not a concern. */
const PROCESS_PREFIX = randomBytes(9).toString('base64url');
let written = 0;

/**
 * A version no write anywhere has used: 24 characters of [A-Za-z0-9_.-], always 24, so an
 * item's size does not depend on how many writes came before.
 */
export function nextVersionId(): string {
  written += 1;
  return `${PROCESS_PREFIX}.${written.toString(36).padStart(11, '0')}`;
}
