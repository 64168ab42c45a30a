/**
 * When a holder's presence key expires, as the wait's last read of it told (Redis PTTL,
 * DynamoDB's expiry attribute, the memory presence's deadline): the park before the next read
 * may end then, so a crashed holder's second empty read comes at its key's expiry and one beat
 * later, not on the park schedule. The rule of two empty reads a beat apart is unchanged.
 */

/** How long after a holder's key expires, as its presence told, the read brought forward runs. */
const EXPIRY_MARGIN_MS = 10;

export class HolderExpiry {
  /** When the last read found a holder alive and its presence told: whose key, expiring when. */
  #expiry: { jobId: string; at: number } | undefined;
  /**
   * True when this park ends early, as the holder's key expires. A read so brought forward
   * that still finds the holder alive says its key was set again (a beat), or that the
   * presence's expiry is wrong: its own expiry is not used, so the next read keeps the park
   * schedule, and a presence that keeps answering "expiring now" cannot cut every park short.
   */
  #broughtForward = false;

  /** Milliseconds from `now` until the key of `jobId` expires, when its last read told. */
  untilExpiryMs(jobId: string, now: number): number | undefined {
    const expiry = this.#expiry;
    return expiry !== undefined && expiry.jobId === jobId ? expiry.at - now : undefined;
  }

  /** Notes whether the park just set ends early, at the expiry. */
  parked(broughtForward: boolean): void {
    this.#broughtForward = broughtForward;
  }

  /** Notes a read's answer, arrived `now`: its expiry, unless the read was brought forward. */
  read(
    jobId: string,
    alive: boolean | undefined,
    expiresInMs: number | undefined,
    now: number,
  ): void {
    const trusted = !this.#broughtForward;
    this.#broughtForward = false;
    // Counted from the answer's arrival, not the read's start, and a margin later: the read
    // at expiry then lands after the key's expiry on the presence's clock, whose whole
    // milliseconds (Redis keeps a key until its clock is past the expiry) could otherwise
    // still show the key to a read sent at the instant told.
    this.#expiry =
      trusted && alive === true && expiresInMs !== undefined
        ? { jobId, at: now + expiresInMs + EXPIRY_MARGIN_MS }
        : undefined;
  }
}
