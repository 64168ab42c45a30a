/**
 * The handoff wire format, exactly as the seed gives it, so servers of any build agree:
 * a request `{ T: "Q", D, K, R, L? }` and a reply `{ T: "R", D, K }`; and a message nudge
 * `{ T: "M", D, K }` (`rules/messages/nudge.ts`), which a build before messages ignores. The
 * fields this build adds (a request's `W`, `M`, `H`; a reply's `H`, `V`, `J`) are optional and
 * ignored by a build that predates them.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { isPlainObject } from '../ports/json.js';
import { isWellFormedText, MAX_TOKEN_BYTES, tooLong } from '../rules/keys.js';
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
  readonly W?: 'support' | 'operator';
  /** With `W: 'operator'`: the kick message the operator gave (`driver.kick`). */
  readonly M?: string;
  /**
   * The token of the requester's load, with `L`: the holder may write the requester's lock
   * (this token, the requester's jobId `R`) in its release instead of no lock, so the load's
   * next attempt finds its own lock and only reads. Not in the original format: a build that
   * predates it ignores the field and releases as before. Under signing it carries its own
   * signature (`SH`), so a build that signs without knowing it still checks `S` as it always did.
   */
  readonly H?: string;
};

/**
 * Why a server asks for a profile other than a player's join (`HandoffRequest.W`): `support`
 * (`restoreAt`, `erase`), or an operator ending the session on purpose with a kick message.
 */
export type RequestReason = 'support' | OperatorRequest;

/** An operator's request (`driver.kick`): the holder kicks its player with `message`. */
export interface OperatorRequest {
  readonly message: string;
}

/** The longest kick message an operator's request carries (UTF-16 units). */
export const MAX_KICK_MESSAGE_LENGTH = 200;

/** Refuses a kick message a request could not carry (`Data.InvalidArgument`). */
export function checkKickMessage(value: unknown): asserts value is string {
  if (!isKickMessage(value)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `a kick message must be 1 to ${MAX_KICK_MESSAGE_LENGTH} characters of well-formed text`,
    );
  }
}

/** True for a kick message a request may carry: non-empty, well-formed, not too long. */
export function isKickMessage(value: unknown): value is string {
  return isText(value) && value.length > 0 && value.length <= MAX_KICK_MESSAGE_LENGTH;
}

export type HandoffReply = {
  readonly T: 'R';
  readonly D: string;
  readonly K: string;
  /**
   * With `V` and `J`, only under signing: the hand-over token of the requester's load (its
   * request's `H`) that the holder's release wrote as the lock, the version the store gave that
   * write, and the record it wrote, as JSON. The load takes the lock from it with no read of
   * the store. Not in the original format: a build that predates it ignores the three fields
   * and reads the store as before. They carry their own signature (`SH`), so `S` stays what
   * such a build computes.
   */
  readonly H?: string;
  readonly V?: string;
  readonly J?: string;
};

/** What a reply that hands a lock over carries: the load's token, the version, the record's JSON. */
export interface HandedRecord {
  readonly token: string;
  readonly version: string;
  readonly json: string;
}

export type HandoffMessage = HandoffRequest | HandoffReply | MessageNudge;

// A string no server could have sent (a lone surrogate) names nothing here: ignored.
const isText = isWellFormedText;

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
  handTo?: string,
): HandoffRequest {
  const request: HandoffRequest =
    token === undefined
      ? { T: 'Q', D: driver, K: key, R: requester }
      : handTo === undefined
        ? { T: 'Q', D: driver, K: key, R: requester, L: token }
        : { T: 'Q', D: driver, K: key, R: requester, L: token, H: handTo };
  if (reason === undefined) return request;
  return reason === 'support'
    ? { ...request, W: 'support' }
    : { ...request, W: 'operator', M: reason.message };
}

/** `message` without its hand-over part: a request's token (`H`), a reply's record (`H`, `V`, `J`). */
export function withoutHandOver<M extends HandoffRequest | HandoffReply>(message: M): M {
  if (message.T === 'R') return replyMessage(message.D, message.K) as M;
  const { H: _handTo, ...rest } = message;
  return rest as M;
}

/**
 * True for a token a request may ask the lock be handed to, or a version a reply may carry:
 * well-formed, not empty, not too long.
 */
export function isHandOverToken(value: unknown): value is string {
  return isText(value) && value.length > 0 && tooLong(value, MAX_TOKEN_BYTES) === undefined;
}

/** The reason a parsed request carries (`W`, and `M` for an operator's). */
export function reasonOf(request: HandoffRequest): RequestReason | undefined {
  if (request.W === 'support') return 'support';
  return request.W === 'operator' && request.M !== undefined ? { message: request.M } : undefined;
}

export function replyMessage(driver: string, key: string, handed?: HandedRecord): HandoffReply {
  if (handed === undefined) return { T: 'R', D: driver, K: key };
  return { T: 'R', D: driver, K: key, H: handed.token, V: handed.version, J: handed.json };
}

/** The record a reply hands over, when it carries one. */
export function handedRecordOf(reply: HandoffReply): HandedRecord | undefined {
  const { H, V, J } = reply;
  return H === undefined || V === undefined || J === undefined
    ? undefined
    : { token: H, version: V, json: J };
}

/** A reply's record, or none: all three fields of the right kind, or the reply is a plain one. */
function parseHandedRecord(value: Record<string, unknown>): HandedRecord | undefined {
  const { H, V, J } = value;
  // A version is a short token too, as every store makes it.
  if (!isHandOverToken(H) || !isHandOverToken(V) || !isText(J)) return undefined;
  return { token: H, version: V, json: J };
}

/** The message, or `undefined` for anything malformed (which the handoff ignores). */
export function parseHandoffMessage(value: unknown): HandoffMessage | undefined {
  if (!isPlainObject(value) || !isText(value.D) || !isText(value.K)) return undefined;
  if (value.T === 'R') return replyMessage(value.D, value.K, parseHandedRecord(value));
  if (value.T === 'M') return parseNudge(value);
  if (value.T !== 'Q' || !isText(value.R)) return undefined;
  if (value.L !== undefined && !isText(value.L)) return undefined;
  // A reason this build does not know reads as none: the holder kicks as for a join.
  const reason: RequestReason | undefined =
    value.W === 'support'
      ? 'support'
      : value.W === 'operator' && isKickMessage(value.M)
        ? { message: value.M }
        : undefined;
  // A hand-over needs the lock the requester saw; one this build cannot take is left out, and
  // the request is answered as a plain one (the requester's load then takes the lock itself).
  const handTo = value.L !== undefined && isHandOverToken(value.H) ? value.H : undefined;
  return requestMessage(value.D, value.K, value.R, value.L, reason, handTo);
}
