/**
 * Signed handoff messages, off by default: with a key shared by the fleet, every message
 * carries `S`, an HMAC-SHA256 of its fields, and a server that requires signatures drops a
 * message without a valid one. Access to the bus alone then cannot forge a request (one
 * without `L` kicks any live player by key) nor a reply. The signature covers the fields only
 * (not the topic, the time, or a nonce): a captured message can be replayed, a reply waking
 * the loads of its key on any server (one store read each). Older builds
 * ignore `S`, so a fleet can turn signing on in two deploys: first sign and accept unsigned
 * messages (`acceptUnsigned: true`), then require them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HandoffMessage } from './wire.js';

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
  readonly acceptUnsigned: boolean;

  constructor(signing: HandoffSigning) {
    const key = typeof signing.key === 'string' ? Buffer.from(signing.key, 'utf8') : signing.key;
    if (!(key instanceof Uint8Array) || key.byteLength < 16) {
      throw new RangeError('signing.key must be a string or bytes of at least 16 bytes');
    }
    this.key = key;
    this.acceptUnsigned = signing.acceptUnsigned === true;
  }

  /** True when `other` signs and checks exactly as this signer does. */
  sameAs(other: Signer): boolean {
    return this.acceptUnsigned === other.acceptUnsigned && Buffer.from(this.key).equals(other.key);
  }

  /** The message with its signature `S`. */
  sign<M extends HandoffMessage>(message: M): M & { readonly S: string } {
    return { ...message, S: this.signatureOf(message) };
  }

  /** Whether `signature` (the raw message's `S`) signs `message`. */
  check(message: HandoffMessage, signature: unknown): SignatureCheck {
    if (signature === undefined) return 'unsigned';
    if (typeof signature !== 'string') return 'invalid';
    const expected = Buffer.from(this.signatureOf(message), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? 'valid'
      : 'invalid';
  }

  private signatureOf(message: HandoffMessage): string {
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
    return createHmac('sha256', this.key).update(JSON.stringify(fields)).digest('base64url');
  }
}
