import type { HookTarget } from '../config/options.js';
import type { DataDriverError } from '../ports/errors.js';
import type { JsonObject } from '../ports/json.js';
import type { LockInfo } from '../rules/index.js';
import type { HandOver } from './requesters.js';
import type { SessionMessages } from './session-messages.js';
import type { SessionIoOwner } from './session-terms.js';

/** What the view reads of its session (`ProfileSession`). */
export interface ViewedSession {
  readonly key: string;
  readonly token: string;
  readonly data: JsonObject;
  readonly userIds: { readonly list: readonly string[] };
  readonly messages: SessionMessages;
  /** The game's view of the session (a `Profile`): what a save hook gets. */
  readonly profile: HookTarget<object>;
  /** The servers waiting for its key. */
  readonly requesters: { handOver(lockToken: string, since: number): HandOver | undefined };
  /** A write found the lock taken by `holder`: the session is lost. */
  lostTo(holder: LockInfo | undefined): DataDriverError;
  left(): void;
  leaveFailed(error: unknown): unknown;
}

/**
 * What a session's writes read of it. A class, not an object literal with getters: a literal's
 * accessors are defined anew for every session, once per load.
 */
export class SessionView implements SessionIoOwner {
  constructor(
    private readonly session: ViewedSession,
    private readonly hooks: { changed(): void },
  ) {}

  lost(holder: LockInfo | undefined): DataDriverError {
    return this.session.lostTo(holder);
  }

  get key(): string {
    return this.session.key;
  }

  get token(): string {
    return this.session.token;
  }

  get data(): JsonObject {
    return this.session.data;
  }

  get userIds(): readonly string[] {
    return this.session.userIds.list;
  }

  get messages(): SessionMessages {
    return this.session.messages;
  }

  get profile(): HookTarget<JsonObject> {
    // The same object: a profile's data is the session's JSON object.
    return this.session.profile as HookTarget<JsonObject>;
  }

  handOver(since: number): HandOver | undefined {
    return this.session.requesters.handOver(this.session.token, since);
  }

  settled(): void {
    this.hooks.changed();
  }

  left(): void {
    this.session.left();
  }

  leaveFailed(error: unknown): unknown {
    return this.session.leaveFailed(error);
  }
}
