/**
 * Signed handoff messages, off by default: with a key shared by the fleet, every message
 * carries `S`, an HMAC-SHA256 of its fields, and a server that requires signatures drops a
 * message without a valid one. Access to the bus alone then cannot forge a request (one
 * without `L` kicks any live player by key) nor a reply. The signature covers the fields only
 * (not the topic, the time, or a nonce): a captured message can be replayed, a reply waking
 * the loads of its key on any server (one store read each). Older builds
 * ignore `S`, so a fleet can turn signing on in two deploys: first sign and accept unsigned
 * messages (`acceptUnsigned: true`), then require them.
 *
 * A request's hand-over token (`H`) has a signature of its own, `SH`, over the request's
 * fields and the token: `S` stays what a build that predates `H` computes, so such a holder
 * still accepts the request (and ignores `H`), and a holder that knows `H` writes a lock for it
 * only when `SH` is valid. A reply's handed record (`H`, `V`, `J`) is signed the same way, and
 * names the one load it is for: replayed, it reaches no other load.
 */
import { timingSafeEqual } from 'node:crypto';
import { copyWith } from '../ports/copy-with.js';
import { KeyedHmacs } from './keyed-hmacs.js';
import {
  type HandedRecord,
  type HandoffMessage,
  type HandoffReply,
  type HandoffRequest,
  handedRecordOf,
} from './wire.js';

export interface HandoffSigning {
  /** The fleet's shared secret (at least 16 bytes). */
  readonly key: string | Uint8Array;
  /** Also accept messages without a signature, while the fleet is being switched over. */
  readonly acceptUnsigned?: boolean;
}

/** What a signer checks a message against: its signature, or its lack of one. */
export type SignatureCheck = 'valid' | 'unsigned' | 'invalid';

export class Signer {
  private readonly key: Uint8Array;
  private readonly hmacs: KeyedHmacs;
  readonly acceptUnsigned: boolean;
  /**
   * Each message's `S`, computed once: a hand-over token's `SH` covers it, so signing a request
   * and checking one would otherwise compute it twice (an HMAC costs microseconds per message).
   */
  private readonly signatures = new WeakMap<HandoffMessage, string>();

  constructor(signing: HandoffSigning) {
    const key = typeof signing.key === 'string' ? Buffer.from(signing.key, 'utf8') : signing.key;
    if (!(key instanceof Uint8Array) || key.byteLength < 16) {
      throw new RangeError('signing.key must be a string or bytes of at least 16 bytes');
    }
    // A copy: every HMAC of this signer, keyed ahead or at its use, is under the key as given,
    // whatever the caller does with its bytes after.
    this.key = Buffer.from(key);
    this.hmacs = new KeyedHmacs(this.key);
    this.acceptUnsigned = signing.acceptUnsigned === true;
  }

  /** True when `other` signs and checks exactly as this signer does. */
  sameAs(other: Signer): boolean {
    return this.acceptUnsigned === other.acceptUnsigned && Buffer.from(this.key).equals(other.key);
  }

  /**
   * The message with its signature `S`, and `SH` when it carries a hand-over part: a request's
   * token, or a reply's record.
   */
  sign<M extends HandoffMessage>(message: M): M & { readonly S: string } {
    const S = this.signatureOf(message);
    const SH = this.handOverSignatureOf(message);
    if (SH === undefined) return copyWith(message, { S }) as M & { readonly S: string };
    return copyWith(message, { S, SH }) as M & { readonly S: string; readonly SH: string };
  }

  /** Whether `signature` (the raw message's `S`) signs `message`. */
  check(message: HandoffMessage, signature: unknown): SignatureCheck {
    return compare(this.signatureOf(message), signature);
  }

  /**
   * Whether `signature` (the raw message's `SH`) signs its hand-over part: a request's token,
   * a reply's record. A message without one has nothing to check: `unsigned`.
   */
  checkHandOver(message: HandoffRequest | HandoffReply, signature: unknown): SignatureCheck {
    const expected = this.handOverSignatureOf(message);
    return expected === undefined ? 'unsigned' : compare(expected, signature);
  }

  private handOverSignatureOf(message: HandoffMessage): string | undefined {
    if (message.T === 'Q') {
      return message.H === undefined ? undefined : this.handToSignatureOf(message, message.H);
    }
    if (message.T !== 'R') return undefined;
    const handed = handedRecordOf(message);
    return handed === undefined ? undefined : this.handedSignatureOf(message, handed);
  }

  private handedSignatureOf(reply: HandoffReply, handed: HandedRecord): string {
    // The reply's own signature, the load's token, the version and the record, in this order.
    const fields = ['HR', this.signatureOf(reply), handed.token, handed.version, handed.json];
    return this.hmacOf(fields);
  }

  private handToSignatureOf(request: HandoffRequest, handTo: string): string {
    // The request's own signature and the token: `H` cannot be moved onto another request.
    const fields = ['H', this.signatureOf(request), handTo];
    return this.hmacOf(fields);
  }

  private signatureOf(message: HandoffMessage): string {
    const known = this.signatures.get(message);
    if (known !== undefined) return known;
    const signature = this.computeSignatureOf(message);
    this.signatures.set(message, signature);
    return signature;
  }

  private computeSignatureOf(message: HandoffMessage): string {
    // Every field, in a fixed order, so no two messages share a signature.
    const fields =
      message.T === 'Q'
        ? [
            message.T,
            message.D,
            message.K,
            message.R,
            message.L ?? null,
            // Only when present, so a request without one signs as it always did.
            ...(message.W === undefined ? [] : [message.W]),
            ...(message.M === undefined ? [] : [message.M]),
          ]
        : // A reply and a nudge: their type, driver and key.
          [message.T, message.D, message.K];
    return this.hmacOf(fields);
  }

  /** HMAC-SHA256 of the fields' JSON, base64url: every signature of the wire. */
  private hmacOf(fields: readonly unknown[]): string {
    return this.hmacs.take().update(JSON.stringify(fields)).digest('base64url');
  }
}

function compare(expectedSignature: string, signature: unknown): SignatureCheck {
  if (signature === undefined) return 'unsigned';
  if (typeof signature !== 'string') return 'invalid';
  const expected = Buffer.from(expectedSignature, 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}
