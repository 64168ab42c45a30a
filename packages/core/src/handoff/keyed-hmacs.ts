/**
 * HMAC-SHA256s keyed ahead of the message that uses them. A hand-over's messages are signed
 * and checked by processes that have just woken (a holder idle since its player joined, a
 * joiner back from a store read), and on a woken process about half an HMAC's cost is keying
 * it: right after 10 ms of idle a whole HMAC took 42 µs here, and the update and digest of one
 * keyed before the idle 23 to 25 (`bench/scripts/hmac-after-idle.mjs`). So once a signer has
 * used one, it keeps a few keyed, making the next ones after the turn that used them, once
 * its message is on its way. The signatures are the same: only when the key is set up changes.
 */
import { createHmac, type Hmac } from 'node:crypto';

/** A message's signature and its hand-over signature: the most one message needs at once. */
const READY = 2;

export class KeyedHmacs {
  readonly #ready: Hmac[] = [];
  #refillQueued = false;

  /**
   * Keys nothing yet: a signer made only to check a key, or to sign one message and be
   * dropped, would key its spares for nothing.
   */
  constructor(private readonly key: Uint8Array) {}

  /** How many are keyed and waiting. */
  get ready(): number {
    return this.#ready.length;
  }

  /** A fresh HMAC-SHA256 under the key: one keyed ahead, or a new one when none is left. */
  take(): Hmac {
    const hmac = this.#ready.pop();
    // Queued again when none was ready: a refill that never ran (fake timers switched off
    // before it) must not stop the keying ahead for good.
    if (hmac === undefined || !this.#refillQueued) this.#queueRefill();
    return hmac ?? createHmac('sha256', this.key);
  }

  #queueRefill(): void {
    // Without a turn to key them in (no `setImmediate`), each is keyed at its use, as before.
    if (typeof setImmediate !== 'function') return;
    this.#refillQueued = true;
    // After this turn's callbacks: the message being signed or checked goes first. Unref'd:
    // keying ahead never keeps a process alive.
    setImmediate(() => {
      this.#refillQueued = false;
      while (this.#ready.length < READY) this.#ready.push(createHmac('sha256', this.key));
    }).unref?.();
  }
}
