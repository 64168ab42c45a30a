/**
 * Every presence write that landed, on the backend's clock: the ground truth of which server
 * was beating when. A presence read cannot lie (it can only fail, the third answer), so a
 * holder whose key was present all through a window could not have read as stopped in it.
 */
export class PresenceHistory {
  private readonly writes = new Map<string, Array<{ at: number; expiresAt: number }>>();

  record(key: string, at: number, ttlSeconds: number): void {
    const list = this.writes.get(key) ?? [];
    list.push({ at, expiresAt: at + ttlSeconds * 1000 });
    this.writes.set(key, list);
  }

  /**
   * True when `key` was present at every instant of [from, to]. Conservative at the edges: a
   * write counts from the millisecond after it landed (a read in the same millisecond may
   * have run first), and a key is gone at its expiry instant, as in the in-memory presence.
   */
  presentThroughout(key: string, from: number, to: number): boolean {
    let coveredUntil = from - 1; // every instant up to here is covered
    for (const write of this.writes.get(key) ?? []) {
      if (write.at + 1 > coveredUntil + 1) break; // in time order: nothing later fills the gap
      coveredUntil = Math.max(coveredUntil, write.expiresAt - 1);
      if (coveredUntil >= to) return true;
    }
    return coveredUntil >= to;
  }
}
