/**
 * A loaded profile, as a game sees it: its data, save, release. The session behind it
 * (`session/profile-session.ts`) holds the lock token, the state and the writes.
 */
import type { ReleaseReason } from '../events/events.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { JsonObject, JsonValue } from '../ports/json.js';
import { checkStoreKey } from '../rules/keys.js';
import { inactiveError } from './session-errors.js';
import type { SessionMessages } from './session-messages.js';
import type { UserIds } from './user-ids.js';

/** What a profile reads and asks of the session behind it (`ProfileSession`). */
export interface ProfileBacking {
  readonly key: string;
  data: JsonObject;
  readonly active: boolean;
  readonly token: string;
  readonly userIds: UserIds;
  /** What its last committed save or release stored: `json`, the data's JSON. */
  readonly lastWritten: { readonly json: string };
  /** Its messages: the outbox a transfer goes into. */
  readonly messages: SessionMessages;
  /** A trade holding it, if any: no transfer while one is undecided. */
  readonly trade: unknown;
  save(reason: 'manual'): Promise<void>;
  release(reason: ReleaseReason): Promise<void>;
}

/** The session behind a profile of this package (set by the class's static block). */
let sessionBehind: (profile: Profile<object>) => ProfileBacking | undefined;

/** The session behind a profile of this package; `undefined` for any other object. */
export function backingOf(profile: Profile<object>): ProfileBacking | undefined {
  return sessionBehind(profile);
}

/** A player's data under this server's session lock. */
export class Profile<T extends object> {
  readonly #session: ProfileBacking;

  // The private field is the brand: no WeakMap entry per load for the GC to trace.
  static {
    sessionBehind = (profile) => (#session in profile ? profile.#session : undefined);
  }

  /** @internal Profiles are made by `DataDriver.load`. */
  constructor(session: ProfileBacking) {
    this.#session = session;
  }

  /** The profile's key in its driver. */
  get key(): string {
    return this.#session.key;
  }

  /** The player's data. Change it freely; it is written by `save()`, autosave and `release()`. */
  get data(): T {
    return this.#session.data as unknown as T;
  }

  set data(value: T) {
    this.#session.data = value as unknown as JsonObject;
  }

  /**
   * The data as last durably stored (a copy): what the record holds now, the changes made
   * since the last committed save excluded. A game shows or checks a grant here once it is
   * safe from a crash; a purchase's grant itself needs no more than `DataDriver.send`.
   */
  get lastSaved(): T {
    return JSON.parse(this.#session.lastWritten.json) as T;
  }

  /** True while this server holds the lock and the profile accepts changes. */
  get active(): boolean {
    return this.#session.active;
  }

  /** The lock token of this session (for logs). */
  get lockToken(): string {
    return this.#session.token;
  }

  /** The user ids this profile belongs to, kept in the record for erasure requests. */
  get userIds(): readonly string[] {
    return this.#session.userIds.list;
  }

  /** Tags the profile with a user id (a string of well-formed UTF-16); written with the next save. */
  addUserId(userId: string): void {
    checkStoreKey(userId, 'a user id');
    this.#session.userIds.add(userId);
  }

  /** Removes a user id tag; written with the next save. */
  removeUserId(userId: string): void {
    this.#session.userIds.remove(userId);
  }

  /**
   * Sends `body` to profile `to` of this driver (another player), exactly once by `options.id`:
   * recorded in this profile's own record by its next save, in the same write as the changes
   * made beside it (take 10 coins off here, send them there), and delivered to `to`'s inbox once
   * that write committed; whoever holds this profile next finishes a delivery a crash
   * interrupted. Throws, changing nothing, for a bad recipient, id or body, a full outbox
   * (`Data.OutboxFull`), an inactive profile, or one a trade holds.
   */
  send(to: string, body: unknown, options: { readonly id: string }): void {
    const session = this.#session;
    if (!session.active) throw inactiveError(session.key);
    if (session.trade !== undefined) {
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        `a trade on ${session.key} is undecided: send once it is; nothing was changed`,
        { details: { key: session.key } },
      );
    }
    session.messages.transfer(session.key, to, body as JsonValue, options?.id);
  }

  /** Saves now. Rejects with `Data.LockLost` if another server took the lock. */
  save(): Promise<void> {
    return this.#session.save('manual');
  }

  /** Saves and releases the lock. The profile becomes inactive. */
  release(): Promise<void> {
    return this.#session.release('manual');
  }
}
