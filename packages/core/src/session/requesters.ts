/**
 * The servers waiting for one key, each with the lock it named: every one gets a reply when
 * the key is let go. Bounded: a key is wanted by a few servers at once, and more are a flood of
 * spoofed requesters, which must not grow memory. They get no reply, and a real one's repeated
 * request (every 4 s) is answered once the key is free.
 */
export const MAX_REQUESTERS_PER_KEY = 16;

export class Requesters {
  /** Made on the first request: most keys are never asked for. */
  #servers: Map<string, string | undefined> | undefined;

  /** True when `requester` is new and `MAX_REQUESTERS_PER_KEY` others already wait. */
  full(requester: string): boolean {
    const servers = this.#servers;
    return (
      servers !== undefined && !servers.has(requester) && servers.size >= MAX_REQUESTERS_PER_KEY
    );
  }

  /** Records `requester` and the lock token it named (unless full). */
  note(requester: string, token: string | undefined): void {
    if (this.full(requester)) return;
    this.#servers ??= new Map();
    this.#servers.set(requester, token);
  }

  /** True while some server waits for this key. */
  get waiting(): boolean {
    return this.#servers !== undefined && this.#servers.size > 0;
  }

  /** Every requester with the token it named, forgetting them all. */
  take(): Array<[requester: string, token: string | undefined]> {
    if (this.#servers === undefined) return [];
    const all = [...this.#servers];
    this.#servers.clear();
    return all;
  }

  clear(): void {
    this.#servers?.clear();
  }
}
