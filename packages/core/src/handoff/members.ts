/**
 * The drivers attached to one server's handoff, by name: each message goes to the driver it
 * names, every event of the handoff reaches each driver's listeners and logger, and the
 * profiles they hold count toward the server's publish budget.
 */

import type { EventStream } from '../events/event-stream.js';
import type { EventPayload } from '../events/events.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import type { HandoffClient, HandoffMembership } from './options.js';
import { type HandoffMessage, handedRecordOf, type RequestReason, reasonOf } from './wire.js';

export class HandoffMembers {
  private readonly clients = new Map<string, HandoffClient>();
  /** What each attached driver brought: its ports, and its event stream and logger. */
  private readonly memberships = new Map<string, HandoffMembership>();

  constructor(
    /** The handoff's own listeners, and its logger: they hear every event first. */
    private readonly events: EventStream,
    private readonly logger: Logger,
  ) {}

  /** Number of drivers registered. */
  get size(): number {
    return this.clients.size;
  }

  /** Refuses a second driver of `client`'s name: handoff routes by name, so they would collide. */
  assertFree(client: HandoffClient): void {
    const existing = this.clients.get(client.name);
    if (existing && existing !== client) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `two drivers named ${client.name} on one handoff: handoff routes by name, so they would collide`,
      );
    }
  }

  add(client: HandoffClient, membership: HandoffMembership | undefined): void {
    this.clients.set(client.name, client);
    if (membership) this.memberships.set(client.name, membership);
  }

  /** Forgets `client`; false when it is not the driver registered under its name. */
  remove(client: HandoffClient): boolean {
    if (this.clients.get(client.name) !== client) return false;
    this.clients.delete(client.name);
    this.memberships.delete(client.name);
    return true;
  }

  clear(): void {
    this.clients.clear();
    this.memberships.clear();
  }

  /** Hands a request, a reply or a nudge to the driver it names (none: dropped). */
  deliver(message: HandoffMessage): void {
    const client = this.clients.get(message.D);
    if (!client) return;
    if (message.T === 'Q')
      client.receiveHandoffRequest(message.K, message.R, message.L, reasonOf(message), message.H);
    else if (message.T === 'M') client.receiveMessageNudge?.(message.K);
    else client.receiveHandoffReply(message.K, handedRecordOf(message));
  }

  /** Why driver `driverName` asks for `key` now, when it says (a support action). */
  requestReason(driverName: string, key: string): RequestReason | undefined {
    return this.clients.get(driverName)?.requestReason?.(key);
  }

  /** Profiles the drivers hold or are loading. */
  profileCount(): number {
    let profiles = 0;
    for (const client of this.clients.values()) profiles += client.profileCount ?? 0;
    return profiles;
  }

  /**
   * To the handoff's listeners and logger, and to every attached driver's listeners and
   * logger: a beat failure concerns each of them. A logger already given the line is not
   * given it again (drivers of one server often share one).
   */
  emit(event: EventPayload): void {
    this.events.emit(event);
    const logged = new Set<Logger>([this.logger]);
    for (const { events, logger } of this.memberships.values()) {
      if (!events) continue;
      events.emit(event, undefined, { log: logger === undefined || !logged.has(logger) });
      if (logger) logged.add(logger);
    }
  }
}
