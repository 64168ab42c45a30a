/**
 * Whether an autosave writes. A save whose record would differ from the session's last
 * committed write only by its version and its lock's time stores nothing new: that autosave
 * writes nothing, until the lock is a third of `lockTtlSeconds` old, when it writes anyway to
 * refresh the lock. A lock's age is its holder's silence (`isStale`), so a live holder's lock
 * stays under a third of the TTL plus one autosave period old (under two thirds of the TTL,
 * as autosaves are at most half of it apart), far from stale (TTL + skew). An idle
 * player at the defaults (TTL 180 s, autosave 30 s) costs one write a minute instead of two.
 */
import type { LockInfo, RecordMeta } from './record.js';
import { type LockWriter, lockedMeta, type MetaExtras } from './record-writes.js';

/** The session's last committed write, as the autosave compares it. */
export interface CommittedWrite {
  /** The data's JSON as that write stored it. */
  readonly json: string;
  /** The meta of the record it stored. */
  readonly meta: RecordMeta;
  /** When it began, by this server's clock: at or before the lock time it stored. */
  readonly at: number;
}

export interface AutosaveCheck {
  /**
   * The session's last committed write; `undefined` when none is known to be stored (a write
   * of the session failed since, and may or may not have committed), so the autosave writes.
   */
  readonly last: CommittedWrite | undefined;
  /** The data's JSON as this autosave would write it. */
  readonly json: string;
  /** Its lock, at its time (`now`). */
  readonly writer: LockWriter;
  /** The meta besides the lock it would set (`lockedMeta`). */
  readonly extras: MetaExtras;
  readonly lockTtlSeconds: number;
}

/** How old the last committed write may grow before an autosave refreshes the lock: TTL / 3. */
export function lockRefreshMs(lockTtlSeconds: number): number {
  return (lockTtlSeconds * 1000) / 3;
}

/** True when this autosave writes; false when its write would store nothing new yet. */
export function autosaveWrites(check: AutosaveCheck): boolean {
  const { last, writer } = check;
  if (last === undefined) return true;
  if (writer.now - last.at >= lockRefreshMs(check.lockTtlSeconds)) return true;
  if (check.json !== last.json || !heldBy(last.meta.lock, writer)) return true;
  return !sameButLock(last.meta, lockedMeta(last.meta, writer, check.extras));
}

/** True when `lock` is this writer's session's, whatever its time. */
function heldBy(lock: LockInfo | undefined, writer: LockWriter): boolean {
  return (
    lock !== undefined &&
    lock.jobId === writer.jobId &&
    lock.token === writer.token &&
    lock.presence === writer.presence
  );
}

/** True when `next` is `last` with only its version and lock moved. */
function sameButLock(last: RecordMeta, next: RecordMeta): boolean {
  const before = last as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  const fields = Object.keys(after);
  return (
    fields.length === Object.keys(before).length &&
    fields.every(
      (field) => field === 'version' || field === 'lock' || sameField(before, after, field),
    )
  );
}

/** Both hold `field` (as an own property, so a `__proto__` field is one), with equal values. */
function sameField(a: Record<string, unknown>, b: Record<string, unknown>, field: string) {
  return Object.hasOwn(a, field) && Object.hasOwn(b, field) && sameJson(a[field], b[field]);
}

/** Equal JSON values: the same keys (in any order) holding equal values, arrays in order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length && keys.every((key) => sameField(left, right, key))
  );
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * One period after the last due time, as the clock runs on time. A clock stepped forward past it
 * keeps the profile's phase (the next due time of its period after now): autosaves that a step
 * made fall due together do not stay together. A clock stepped back waits one period from now.
 */
export function nextAutosaveDue(due: number, now: number, periodMs: number): number {
  const next = due + periodMs;
  if (next <= now) return now + periodMs - ((now - due) % periodMs);
  return Math.min(next, now + periodMs);
}
