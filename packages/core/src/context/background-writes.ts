/**
 * The store writes a driver starts without waiting for them (a settled trade's journal
 * clean-up): `close()` waits for them too, so that nothing of a closed driver reaches the
 * store after `close()` resolved. Each one reports its own failure.
 */
export class BackgroundWrites {
  readonly #pending = new Set<Promise<void>>();

  /** Keeps `write` until it settles. */
  track(write: Promise<unknown>): void {
    const settled = write.then(
      () => undefined,
      () => undefined,
    );
    this.#pending.add(settled);
    void settled.then(() => this.#pending.delete(settled));
  }

  /** Resolves once none is pending, counting those started while it waits. */
  async drained(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }
}
