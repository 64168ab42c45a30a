/**
 * Every presence write that landed and every key the backend lost, on the backend's clock: the
 * ground truth of which server was beating when. A key lives the contract's lifetime
 * (`presenceTtlSeconds`) from each write, whatever TTL the writer passed: what a writer asks for
 * is judged separately (`presence-lifetime`). A presence read cannot lie (it can only fail, the
 * third answer), so a holder whose key was present all through a window could not have read as
 * stopped in it.
 */

type PresenceFact =
  | { readonly kind: 'write'; readonly at: number; readonly expiresAt: number }
  | { readonly kind: 'lost'; readonly at: number };

/** A stretch of time during which a key was present: every instant of [from, to]. */
interface Present {
  readonly from: number;
  readonly to: number;
}

export class PresenceHistory {
  private readonly facts = new Map<string, PresenceFact[]>();

  constructor(
    /** The presence key's lifetime by contract (ms). */
    private readonly lifetimeMs: number,
  ) {}

  /** A write of `key` landed at `at`. */
  record(key: string, at: number): void {
    this.add(key, { kind: 'write', at, expiresAt: at + this.lifetimeMs });
  }

  /** The backend lost `key` at `at` (a failover, an eviction): gone until the next write. */
  lost(key: string, at: number): void {
    this.add(key, { kind: 'lost', at });
  }

  /**
   * True when `key` was present at every instant of [from, to]. Conservative at the edges: a
   * write counts from the millisecond after it landed (a read in the same millisecond may
   * have run first), and a key is gone at its expiry instant, as in the in-memory presence.
   */
  presentThroughout(key: string, from: number, to: number): boolean {
    return this.present(key).some((span) => span.from <= from && span.to >= to);
  }

  /**
   * How far apart the first and the last instant of [from, to] at which `key` was absent lie
   * (ms); -1 when it was present all through. Two empty reads a beat apart need at least a beat.
   */
  absentSpan(key: string, from: number, to: number): number {
    let first: number | undefined;
    let last: number | undefined;
    let cursor = from;
    for (const span of this.present(key)) {
      if (span.to < cursor) continue;
      if (span.from > to) break;
      if (span.from > cursor) {
        first ??= cursor;
        last = Math.min(span.from - 1, to);
      }
      cursor = Math.max(cursor, span.to + 1);
      if (cursor > to) break;
    }
    if (cursor <= to) {
      first ??= cursor;
      last = to;
    }
    return first === undefined || last === undefined ? -1 : last - first;
  }

  /**
   * How long `key` had been missing, without a break, at `at` (ms); -1 when it was present then.
   * A key never written counts from 0, the start of the run.
   */
  absentFor(key: string, at: number): number {
    let since = 0;
    for (const span of this.present(key)) {
      if (span.from > at) break;
      if (span.to >= at) return -1;
      since = span.to + 1;
    }
    return at - since;
  }

  /** The stretches during which `key` was present, in time order and merged. */
  private present(key: string): Present[] {
    const spans: Present[] = [];
    const facts = this.facts.get(key) ?? [];
    // The first loss after each fact: it cuts a write short; a later write extends it (merged).
    const nextLoss: number[] = new Array(facts.length);
    let loss = Number.POSITIVE_INFINITY;
    for (let index = facts.length - 1; index >= 0; index -= 1) {
      nextLoss[index] = loss;
      const fact = facts[index]!;
      if (fact.kind === 'lost') loss = fact.at;
    }
    for (const [index, fact] of facts.entries()) {
      if (fact.kind !== 'write') continue;
      const to = Math.min(fact.expiresAt - 1, nextLoss[index]! - 1);
      if (to < fact.at + 1) continue;
      const previous = spans[spans.length - 1];
      if (previous && fact.at + 1 <= previous.to + 1) {
        spans[spans.length - 1] = { from: previous.from, to: Math.max(previous.to, to) };
      } else {
        spans.push({ from: fact.at + 1, to });
      }
    }
    return spans;
  }

  private add(key: string, fact: PresenceFact): void {
    const list = this.facts.get(key) ?? [];
    list.push(fact);
    this.facts.set(key, list);
  }
}
