/**
 * This driver's end of the handoff: the handoff routes other servers' release requests, and
 * the replies to this driver's own requests, here by the driver's name. Built at assembly,
 * before the context that joins it to the handoff; its parts are connected once they exist.
 * No message reaches it before: the handoff is joined only after assembly (`link.start()`).
 */
import type { DriverContext } from '../context/context.js';
import type { HandoffClient } from '../handoff/handoff.js';
import type { HandedRecord, RequestReason } from '../handoff/wire.js';
import type { SessionRegistry } from '../registry/registry.js';
import type { HolderAnswers } from './holder-answers.js';

/** What the endpoint hands messages on to. */
export interface EndpointParts {
  readonly context: DriverContext;
  readonly registry: SessionRegistry;
  readonly answers: HolderAnswers;
}

export class HandoffEndpoint implements HandoffClient {
  // Set by `connect` during assembly, before the handoff can route anything here.
  #parts!: EndpointParts;
  /** Keys `restoreAt` or `erase` is loading: a holder elsewhere kicks with `kickMessages.support`. */
  readonly supportLoads = new Set<string>();
  /** Keys `kick` is loading, with the operator's kick message the holder uses. */
  readonly operatorKicks = new Map<string, string>();

  /** Once the driver's parts are built. */
  connect(parts: EndpointParts): void {
    this.#parts = parts;
  }

  get name(): string {
    return this.#parts.context.name;
  }

  /** Profiles held or loading here: each adds to this server's publish budget. */
  get profileCount(): number {
    return this.#parts.registry.count;
  }

  /** Another server asks for `key`: the holder's answers decide. */
  receiveHandoffRequest(
    key: string,
    requester: string,
    token: string | undefined,
    reason?: RequestReason,
    handTo?: string,
  ): void {
    this.#parts.answers.receive(key, requester, token, reason, handTo);
  }

  /** Why this driver asks for `key` when not for a player's join. */
  requestReason(key: string): RequestReason | undefined {
    if (this.supportLoads.has(key)) return 'support';
    const message = this.operatorKicks.get(key);
    return message === undefined ? undefined : { message };
  }

  /** A sender's nudge: `key` has a message pending; its holder here makes a pass. */
  receiveMessageNudge(key: string): void {
    this.#parts.context.messageHandlers.nudgeHere(key);
  }

  /** The server this driver asked no longer holds `key`; `handed`, the record it handed here. */
  receiveHandoffReply(key: string, handed?: HandedRecord): void {
    const { context, registry } = this.#parts;
    // The wake resumes the load after this turn, so the event still comes first.
    const kept = registry.replied(key, handed);
    // Reported on arrival, whether or not a load still waits: a reply that comes after the
    // load already succeeded (a slow bus) is still worth seeing in the timeline.
    context.emit({ type: 'handoff.reply.received', key, ...(kept ? { record: true } : {}) });
  }
}
