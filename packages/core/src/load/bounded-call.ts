/**
 * A call raced against a timer: what `settle` makes of its value, or of `late` once the timer
 * fires first, and what `failed` makes of a rejection that came before it. One object a call,
 * its callbacks fields made with it: a race costs its promise and four closures (the promise's
 * executor and these three), where a function of closures made seven, each with its scope, and
 * a store attempt is made on every load.
 */
import type { ScheduledTask } from '../ports/scheduler.js';

/** What a bounded call resolved with, or `late` when its bound came first. */
export type Bounded<T> = { readonly late: false; readonly value: T } | { readonly late: true };

const LATE: Bounded<never> = Object.freeze({ late: true });

function ignore(): void {}

export abstract class BoundedCall<T, R> {
  /** One of `settle` and `failed` runs, once: for the first to come. */
  #over = false;
  #timer: ScheduledTask | undefined;
  #resolve: (value: R | PromiseLike<R>) => void = ignore;
  #reject: (error: unknown) => void = ignore;

  /** Sets the timer that calls `late` at the call's bound. */
  protected abstract arm(late: () => void): ScheduledTask;
  /** What the call's value, or its lateness, resolves the race with. What it throws rejects. */
  protected abstract settle(bounded: Bounded<T>): R | PromiseLike<R>;
  /** What a rejection of the call before its bound resolves the race with. */
  protected abstract failed(error: unknown): R | PromiseLike<R>;

  /** `work` raced against the timer `arm` sets. */
  protected race(work: Promise<T>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
      try {
        this.#timer = this.arm(this.#late);
      } catch (error) {
        work.catch(ignore); // unbounded now: its outcome is no longer read
        this.#failWith(error);
        return;
      }
      work.then(this.#value, this.#error);
    });
  }

  readonly #late = (): void => {
    this.#settleWith(LATE);
  };

  readonly #value = (value: T): void => {
    this.#timer?.cancel();
    this.#settleWith({ late: false, value });
  };

  readonly #error = (error: unknown): void => {
    this.#timer?.cancel();
    this.#failWith(error);
  };

  #settleWith(bounded: Bounded<T>): void {
    if (this.#ended()) return;
    try {
      this.#resolve(this.settle(bounded));
    } catch (error) {
      this.#reject(error);
    }
  }

  #failWith(error: unknown): void {
    if (this.#ended()) return;
    try {
      this.#resolve(this.failed(error));
    } catch (thrown) {
      this.#reject(thrown);
    }
  }

  /** True when the race had ended already; ends it otherwise. */
  #ended(): boolean {
    if (this.#over) return true;
    this.#over = true;
    return false;
  }
}
