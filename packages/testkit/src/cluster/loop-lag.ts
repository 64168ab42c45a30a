/**
 * How long this process's event loop could not run, sampled beside a cluster's servers (they
 * all run in this one process): a timer re-armed every few ms, and each firing later than its
 * usual lateness a span in which no server could run a callback either. A wait's path counts
 * the part of its own-work gaps (no call, flight or timer of the path) that such a span
 * covers as slack, up to a cap (see `pathSlack`): measured during that very wait, never a
 * constant, and never a timer's scheduled delay.
 */
import type { Span } from './ledger.js';

/** The sampler's period (ms): a stall is seen from the first due firing on. */
export const LAG_SAMPLE_MS = 5;

/** The firings the usual lateness (Node's timer granularity) is the median of. */
const BASELINE_WINDOW = 200;

/** Firings before any lag is recorded: a usual lateness needs a few to go by. */
const BASELINE_MIN = 10;

let shared: { lag: LoopLag; users: number } | undefined;

export class LoopLag {
  /**
   * The process's one sampler, on real time's clock (`Date.now()`), started for its first user
   * and stopped when the last one releases it: clusters running side by side in one test file
   * share one event loop, so one sampler serves them all.
   */
  static acquire(): LoopLag {
    shared ??= { lag: new LoopLag(() => Date.now()), users: 0 };
    shared.users += 1;
    shared.lag.start();
    return shared.lag;
  }

  /** Lets go of the shared sampler (see `acquire`). */
  static release(lag: LoopLag): void {
    if (shared?.lag !== lag) return;
    shared.users -= 1;
    if (shared.users > 0) return;
    lag.stop();
    shared = undefined;
  }

  private readonly spans: Span[] = [];
  private readonly recent: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** `now` is the cluster's clock (the ledger's), so lag spans line up with its entries. */
  constructor(
    private readonly now: () => number,
    private readonly periodMs = LAG_SAMPLE_MS,
  ) {}

  start(): void {
    if (this.timer === undefined) this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The lag spans that overlap `span`, in time order. */
  during(span: Span): Span[] {
    return this.spans.filter((lag) => lag.to > span.from && lag.from < span.to);
  }

  private arm(): void {
    const armed = performance.now();
    this.timer = setTimeout(() => {
      this.record(performance.now() - armed - this.periodMs);
      this.arm();
    }, this.periodMs);
    this.timer.unref();
  }

  /** A firing `lateMs` late: what lies past the usual lateness ended now, in the cluster's ms. */
  private record(lateMs: number): void {
    const usual = this.usual();
    this.recent.push(lateMs);
    if (this.recent.length > BASELINE_WINDOW) this.recent.shift();
    const lagMs = lateMs - usual;
    if (this.recent.length <= BASELINE_MIN || lagMs < 1) return;
    const to = this.now();
    this.spans.push({ from: to - lagMs, to });
  }

  /** The median lateness of the recent firings (0 before any). */
  private usual(): number {
    if (this.recent.length === 0) return 0;
    const sorted = [...this.recent].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }
}
