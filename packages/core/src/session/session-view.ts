import type { DataDriverError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { LockInfo } from '../rules/index.js';
import type { ProfileSession } from './profile-session.js';
import type { SessionIoOwner } from './session-io.js';
import type { SessionHooks } from './session-terms.js';

/**
 * What a session's writes read of it. A class, not an object literal with getters: a literal's
 * accessors are defined anew for every session, once per load.
 */
export class SessionView implements SessionIoOwner {
  constructor(
    private readonly session: ProfileSession,
    private readonly hooks: SessionHooks,
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

  settled(): void {
    this.hooks.changed();
  }
}
