import type { DataDriverError } from '../ports/errors.js';
import type { JsonObject } from '../ports/json.js';
import type { LockInfo } from '../rules/index.js';
import type { SessionIoOwner } from './session-io.js';
import type { SessionMessages } from './session-messages.js';

/** What the view reads of its session (`ProfileSession`). */
export interface ViewedSession {
  readonly key: string;
  readonly token: string;
  readonly data: JsonObject;
  readonly userIds: readonly string[];
  readonly messages: SessionMessages;
}

/**
 * What a session's writes read of it. A class, not an object literal with getters: a literal's
 * accessors are defined anew for every session, once per load.
 */
export class SessionView implements SessionIoOwner {
  constructor(
    private readonly session: ViewedSession,
    private readonly hooks: { changed(): void },
    readonly lost: (holder: LockInfo | undefined) => DataDriverError,
  ) {}

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
    return this.session.userIds;
  }

  get messages(): SessionMessages {
    return this.session.messages;
  }

  settled(): void {
    this.hooks.changed();
  }
}
