/**
 * A session's messages in memory: what its record keeps of them (`meta.messages`: the applied
 * ids and the outbox), which every write of the session carries, so a message's effect and its
 * id always go out together; the ids that failed in this session (warned once each); and the
 * passes nudges ask for (one runs at a time, and nudges during it make one more).
 */
import type { JsonValue } from '../ports/json.js';
import {
  addToOutbox,
  type InboxLimits,
  NO_PROFILE_MESSAGES,
  type PassState,
  type ProfileMessages,
  passEnded,
  passRequested,
  type SendOutcome,
  settleDelivery,
} from '../rules/messages/index.js';

/** No message ids: one list for every write of a record that keeps none (most writes). */
export const NO_IDS: readonly string[] = [];

export class SessionMessages {
  /** What the session's next write records; set by a pass before the write that carries it. */
  current: ProfileMessages;
  // The sets are made on first use: most sessions never see a message, and four empty sets
  // per load were a measurable part of a load's garbage.
  #failed: Set<string> | undefined;
  #delivering: Set<string> | undefined;
  /** Applied by this session, not yet seen in a committed write (`message.applied`). */
  #uncommitted: Set<string> | undefined;
  /** Applied by this session or reported as a duplicate: never reported as one (again). */
  #known: Set<string> | undefined;
  #passes: PassState = 'idle';

  constructor(
    start: ProfileMessages | undefined,
    /** The clock a transfer is stamped with. */
    private readonly clock: { now(): number },
    private readonly limits: InboxLimits,
  ) {
    this.current = start ?? NO_PROFILE_MESSAGES;
  }

  /**
   * A transfer from profile `from` to `to`, into the outbox beside the data's change, or the
   * typed error of its first problem (nothing changed); delivered once a write carrying it
   * committed.
   */
  transfer(from: string, to: string, body: JsonValue, id: string): void {
    const entry = { to, id, body, at: this.clock.now() };
    const outbox = addToOutbox(from, this.current.outbox, entry, this.limits);
    this.current = { ...this.current, outbox };
  }

  /** True when delivery of `id` may start now (none in flight); `endDelivery` when it ends. */
  startDelivery(id: string): boolean {
    this.#delivering ??= new Set();
    if (this.#delivering.has(id)) return false;
    this.#delivering.add(id);
    return true;
  }

  endDelivery(id: string): void {
    this.#delivering?.delete(id);
  }

  /** A delivery of `id` answered `outcome` (`settleDelivery`): the next write carries it. */
  settle(id: string, outcome: SendOutcome['outcome']): void {
    this.current = { ...this.current, outbox: settleDelivery(this.current.outbox, id, outcome) };
  }

  /** True when message `id` failed in this session. */
  failed(id: string): boolean {
    return this.#failed?.has(id) === true;
  }

  /** Message `id` failed: true the first time in this session (the one time it warns). */
  fail(id: string): boolean {
    this.#failed ??= new Set();
    if (this.#failed.has(id)) return false;
    this.#failed.add(id);
    return true;
  }

  /** A pass applied `ids` in memory: reported as applied once a write carrying them commits. */
  applied(ids: readonly string[]): void {
    this.#uncommitted ??= new Set();
    this.#known ??= new Set();
    for (const id of ids) {
      this.#uncommitted.add(id);
      this.#known.add(id);
    }
  }

  /** A write committed recording `applied`: the ids this session applied that it made durable. */
  committed(applied: readonly string[]): readonly string[] {
    const uncommitted = this.#uncommitted;
    if (uncommitted === undefined || uncommitted.size === 0) return NO_IDS;
    return applied.filter((id) => uncommitted.delete(id));
  }

  /**
   * Of the pending messages a pass found applied already (`trim`), those an earlier holder
   * applied, each reported once: not this session's own apply whose trim is still to come.
   */
  duplicates(trim: readonly string[]): string[] {
    this.#known ??= new Set();
    const known = this.#known;
    const found = trim.filter((id) => !known.has(id));
    for (const id of found) known.add(id);
    // Bounded: an id the record no longer keeps as applied is never planned as a trim again.
    const kept = new Set(this.current.applied);
    for (const id of known) if (!kept.has(id)) known.delete(id);
    return found;
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
