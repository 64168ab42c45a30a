/**
 * A run's work raced against what ends it early: a server that died unasked, the page going
 * away, or a case that overran (something hung). The first to happen wins.
 */
import { Aborted } from '../aborted.js';

export interface Interrupts {
  /** Rejects when the run can no longer go on (a server died). */
  readonly failed: Promise<never>;
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
}

export async function unlessInterrupted<T>(work: Promise<T>, interrupts: Interrupts): Promise<T> {
  const { signal, timeoutMs } = interrupts;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the case did not finish within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    onAbort = () => reject(new Aborted());
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, interrupts.failed, ended]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
