/** The tail of a queue that has run nothing yet: one promise for every session's queue. */
const IDLE: Promise<void> = Promise.resolve();

/** A session's writes, run one after another, and who waits for the next one to land. */
export class WriteQueue {
  #tail: Promise<void> = IDLE;
  #inFlight = 0;
  /** Made by the first wait: most sessions' writes are never waited for. */
  #waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> | undefined;

  /** `owner.settled` runs after each write, landed or failed (an object, not a closure). */
  constructor(private readonly owner: { settled(): void }) {}

  /** True while a write is queued or running. */
  get busy(): boolean {
    return this.#inFlight > 0;
  }

  /**
   * Runs `write` after every earlier write, in a microtask after this call at the soonest, in
   * the caller's async context (a `then` registered now carries it). Three promises a write:
   * this `then`, its adoption of the write's promise, and the count's `then`. A queue that
   * called `write` itself (`queueMicrotask`) would save two, but start a queued write in the
   * context of the write before it.
   */
  run<R>(write: () => Promise<R>): Promise<R> {
    this.#inFlight += 1;
    const run = this.#tail.then(write);
    // One chain for both jobs: the next write waits on it, and it settles the count. Registered
    // before the caller's own handlers, it runs first, so a caller resumed by `run` sees the
    // write counted out already.
    this.#tail = run.then(this.#done, this.#done);
    return run;
  }

  readonly #done = (): void => {
    this.#inFlight -= 1;
    this.owner.settled();
  };

  /** Resolves when `landed` is next called, rejects if `abandon` is called first. */
  nextLanding(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiters ??= [];
      this.#waiters.push({ resolve, reject });
    });
  }

  /** A write landed: every waiter for the next one resolves. */
  landed(): void {
    const waiters = this.#take();
    if (waiters === undefined) return; // most landings: nobody waits
    for (const waiter of waiters) waiter.resolve();
  }

  /**
   * No write will land any more: every waiter rejects with the error `reason` makes, made only
   * when someone waits (an error's stack costs more than the rest of a release).
   */
  abandon(reason: () => Error): void {
    const waiters = this.#take();
    if (waiters === undefined) return;
    const error = reason();
    for (const waiter of waiters) waiter.reject(error);
  }

  #take() {
    const waiters = this.#waiters;
    this.#waiters = undefined;
    return waiters;
  }
}
