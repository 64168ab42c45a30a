/**
 * The handoff wire format, exactly as the seed gives it, so servers of any build agree:
 * a request `{ T: "Q", D, K, R, L? }` and a reply `{ T: "R", D, K }`; and a message nudge
 * `{ T: "M", D, K }` (`rules/messages/nudge.ts`), which a build before messages ignores.
 */
import { isPlainObject } from '../ports/json.js';
import { isWellFormedText } from '../rules/keys.js';
import { type MessageNudge, parseNudge } from '../rules/messages/nudge.js';

// Type aliases, not interfaces: they must be assignable to the messenger's JsonObject.
export type HandoffRequest = {
  readonly T: 'Q';
  /** The driver's name. */
  readonly D: string;
  /** The profile key. */
  readonly K: string;
  /** The requester's jobId: where to send the reply. */
  readonly R: string;
  /** The lock token the requester saw; a holder with another token replies at once. */
  readonly L?: string;
  /**
   * Why it asks, when not for a player's join: `'support'` for `restoreAt` and `erase`, so the
   * holder kicks with `kickMessages.support`. Not in the original format: a build that predates
   * it ignores the field and kicks as for a join.
   */
  readonly W?: RequestReason;
};

/** Why a server asks for a profile other than a player's join (`HandoffRequest.W`). */
export type RequestReason = 'support';

export type HandoffReply = {
  readonly T: 'R';
  readonly D: string;
  readonly K: string;
};

export type HandoffMessage = HandoffRequest | HandoffReply | MessageNudge;

export const TOPIC_PREFIX = 'CKHandoff_';

export function topicOf(jobId: string): string {
  return `${TOPIC_PREFIX}${jobId}`;
}

export function requestMessage(
  driver: string,
  key: string,
  requester: string,
  token?: string,
  reason?: RequestReason,
): HandoffRequest {
  const request: HandoffRequest =
    token === undefined
      ? { T: 'Q', D: driver, K: key, R: requester }
      : { T: 'Q', D: driver, K: key, R: requester, L: token };
  return reason === undefined ? request : { ...request, W: reason };
}

export function replyMessage(driver: string, key: string): HandoffReply {
  return { T: 'R', D: driver, K: key };
}

// A string no server could have sent (a lone surrogate) names nothing here: ignored.
const isText = isWellFormedText;

/** The message, or `undefined` for anything malformed (which the handoff ignores). */
export function parseHandoffMessage(value: unknown): HandoffMessage | undefined {
  if (!isPlainObject(value) || !isText(value.D) || !isText(value.K)) return undefined;
  if (value.T === 'R') return replyMessage(value.D, value.K);
  if (value.T === 'M') return parseNudge(value);
  if (value.T !== 'Q' || !isText(value.R)) return undefined;
  if (value.L !== undefined && !isText(value.L)) return undefined;
  // A reason this build does not know reads as none: the holder kicks as for a join.
  const reason = value.W === 'support' ? value.W : undefined;
  return requestMessage(value.D, value.K, value.R, value.L, reason);
}
