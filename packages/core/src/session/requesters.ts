/**
 * The servers waiting for one key, each with the lock it named: every one gets a reply when
 * the key is let go. Bounded: a key is wanted by a few servers at once, and more are a flood of
 * spoofed requesters, which must not grow memory. They get no reply, and a real one's repeated
 * request (every 4 s) is answered once the key is free.
 */
export const MAX_REQUESTERS_PER_KEY = 16;

/** What one requester asked: the lock token it named, and the token of its load to hand to. */
export interface Asked {
  readonly token: string | undefined;
  readonly handTo: string | undefined;
  /** When it last asked, on this server's clock. */
  readonly at: number;
}

/** The lock a release writes for the requester it hands the key to. */
export interface HandOver {
  readonly jobId: string;
  readonly token: string;
}

/** What `take` returns when nobody asked: one list for every key. */
export const NO_REQUESTERS: ReadonlyArray<readonly [string, Asked]> = Object.freeze([]);

export class Requesters {
  /** Made on the first request: most keys are never asked for. */
  #servers: Map<string, Asked> | undefined;

  /** True when `requester` is new and `MAX_REQUESTERS_PER_KEY` others already wait. */
  full(requester: string): boolean {
    const servers = this.#servers;
    return (
      servers !== undefined && !servers.has(requester) && servers.size >= MAX_REQUESTERS_PER_KEY
    );
  }

  /**
   * Records `requester`, the lock token it named and the token it asks the lock be handed to
   * (unless full). A repeated request replaces what it asked before.
   */
  note(requester: string, token: string | undefined, handTo: string | undefined, at: number): void {
    if (this.full(requester)) return;
    this.#servers ??= new Map();
    this.#servers.set(requester, { token, handTo, at });
  }

  /**
   * The requester a release of the lock `lockToken` hands the key to: the first that named
   * that very lock and asked for a hand-over at `since` or later (a waiting load asks again
   * every few seconds: an older ask may be of a load that has given up), or none.
   */
  handOver(lockToken: string, since: number): HandOver | undefined {
    if (this.#servers === undefined) return undefined;
    for (const [jobId, asked] of this.#servers) {
      if (asked.token === lockToken && asked.handTo !== undefined && asked.at >= since) {
        return { jobId, token: asked.handTo };
      }
    }
    return undefined;
  }

  /** True while some server waits for this key. */
  get waiting(): boolean {
    return this.#servers !== undefined && this.#servers.size > 0;
  }

  /** Every requester with what it asked, forgetting them all. */
  take(): ReadonlyArray<readonly [requester: string, asked: Asked]> {
    if (this.#servers === undefined || this.#servers.size === 0) return NO_REQUESTERS;
    const all = [...this.#servers];
    this.#servers.clear();
    return all;
  }

  clear(): void {
    this.#servers?.clear();
  }
}
