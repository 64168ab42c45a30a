/**
 * Ids no other process, and no earlier run of this one, has made: a random prefix drawn once
 * per process, then a counter. Unique across processes and restarts like a random UUID, without
 * drawing random bytes for each: the versions a store stamps its writes with
 * (`StoreSnapshot.version`), and the lock tokens and trade ids a driver makes by default.
 * Lock tokens from `crypto.randomUUID()` cost a load + save + release 0.9 µs and 0.96 KB more
 * on the memory store (`bench/scripts/core-cycle-ab.sh d237778 f835ac9`, and with
 * `MEASURE=allocations`).
 */
import { randomBytes } from 'node:crypto';
import { flatString } from './flat-string.js';

/** 72 random bits, then the dot: two processes drawing the same prefix is not a concern. */
const PROCESS_PREFIX = flatString(`${randomBytes(9).toString('base64url')}.`);
/** `'0'` repeated 0 to 11 times: a count's padding, with no filler made each time (`padStart`). */
const ZEROS: readonly string[] = Array.from({ length: 12 }, (_, zeros) => '0'.repeat(zeros));
/** The base-36 digits, each a one-character string V8 keeps made. */
const DIGITS: readonly string[] = Array.from({ length: 36 }, (_, digit) => digit.toString(36));
let made = 0;
/**
 * The id of `made` but its last digit, and the count it was made for (`made / 36`): an id is
 * this head and one digit, one piece joined rather than four made (the count's digits, the
 * padding, two joins), and the head is made again once every 36 ids.
 */
let head = '';
let headOf = -1;

/**
 * An id nothing anywhere has used: 24 characters of [A-Za-z0-9_.-], always 24, so a record's
 * size does not depend on how many ids came before. `uniqueId(PROCESS_PREFIX, count)` for the
 * count of ids made so far.
 */
export function nextUniqueId(): string {
  made += 1;
  const high = Math.floor(made / 36);
  if (high !== headOf) {
    head = PROCESS_PREFIX + base36(high, 10);
    headOf = high;
  }
  return head + (DIGITS[made % 36] as string);
}

/**
 * The id of `count` after `prefix`: the count in base 36, padded to 11 digits (a safe integer,
 * 2^53 - 1 at most, has 11).
 */
export function uniqueId(prefix: string, count: number): string {
  return prefix + base36(count, 11);
}

/** `count` in base 36, padded with zeros to `width` digits (it has no more). */
function base36(count: number, width: number): string {
  const digits = count.toString(36);
  return (ZEROS[width - digits.length] as string) + digits;
}

/** The version of a store's write (`StoreSnapshot.version`): new with every write. */
export const nextVersionId: () => string = nextUniqueId;
