/**
 * A session's messages in memory: what its record keeps of them (`meta.messages`: the applied
 * ids and the outbox), which every write of the session carries, so a message's effect and its
 * id always go out together; the ids that failed in this session (warned once each); and the
 * passes nudges ask for (one runs at a time, and nudges during it make one more).
 */
import {
  NO_PROFILE_MESSAGES,
  type PassState,
  type ProfileMessages,
  passEnded,
  passRequested,
} from '../rules/messages/index.js';

export class SessionMessages {
  /** What the session's next write records; set by a pass before the write that carries it. */
  current: ProfileMessages;
  readonly #failed = new Set<string>();
  #passes: PassState = 'idle';

  constructor(start: ProfileMessages | undefined) {
    this.current = start ?? NO_PROFILE_MESSAGES;
  }

  /** True when message `id` failed in this session. */
  failed(id: string): boolean {
    return this.#failed.has(id);
  }

  /** Message `id` failed: true the first time in this session (the one time it warns). */
  fail(id: string): boolean {
    if (this.#failed.has(id)) return false;
    this.#failed.add(id);
    return true;
  }

  /**
   * Runs `pass` now unless one runs already; then one more runs after it, however many nudges
   * came meanwhile (each pass reads the whole inbox).
   */
  request(pass: () => Promise<unknown>): void {
    const asked = passRequested(this.#passes);
    this.#passes = asked.state;
    if (!asked.start) return;
    const run = (): void => {
      void pass()
        .catch(() => undefined) // a failed save is reported as profile.save-failed
        .then(() => {
          const ended = passEnded(this.#passes);
          this.#passes = ended.state;
          if (ended.start) run();
        });
    };
    run();
  }
}
