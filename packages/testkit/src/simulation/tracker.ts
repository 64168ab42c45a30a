/**
 * What the checks need to remember between events and commits: loads in flight, the session
 * each server holds per key, the presence answers each load read, the tokens each key has
 * seen, each session's last commit, the acknowledged progress, and failed loads awaiting
 * their kick. Bookkeeping only; the judging is in the check modules.
 */
import type { PresenceAnswerName } from '@datadriver/core';

export interface PendingLoad {
  readonly server: string;
  readonly key: string;
  /** The backend's clock when the load started. */
  readonly startedAt: number;
  /** True once it waited for a load or leave save of its key on its own server. */
  readonly waitedHere: boolean;
}

interface LoadSeen {
  readonly startedAt: number;
  waitedHere: boolean;
}

export interface CommitSeen {
  readonly jobId: string;
  readonly progress: number;
  /** The backend's clock when it landed. */
  readonly at: number;
}

/** A commit as the tracker keeps it: numbered, so that each acknowledgment uses a new one. */
export interface CommitNumbered extends CommitSeen {
  readonly number: number;
}

export interface FailedLoad {
  readonly server: string;
  readonly key: string;
  readonly startedAt: number;
  readonly at: number;
  readonly message: string;
}

const pair = (server: string, key: string): string => `${server}|${key}`;

export class Tracker {
  private readonly loads = new Map<string, LoadSeen[]>();
  private readonly sessions = new Map<string, string>();
  private readonly reads = new Map<string, { answer: PresenceAnswerName; at: number }>();
  private readonly tokens = new Map<string, Set<string>>();
  private readonly commits = new Map<string, CommitNumbered>();
  /** When the first commit naming each token landed, by key and token. */
  private readonly firstCommits = new Map<string, number>();
  private commitCount = 0;
  /** Per session, the number of the last commit an acknowledgment was credited with. */
  private readonly credited = new Map<string, number>();
  private readonly acked = new Map<string, number>();
  private readonly kicks = new Map<string, number>();
  private readonly removals = new Map<string, number>();
  private readonly requested = new Set<string>();
  private readonly unsavedAdoptions = new Set<string>();
  private readonly lostLocks = new Set<string>();
  private readonly journalCreators = new Map<string, string>();
  /** Loads that ended with Data.Timeout while a store attempt was out: it may still land. */
  private readonly timedOut = new Map<string, number[]>();
  failedLoads: FailedLoad[] = [];

  /** The server (jobId) whose write created the trade journal `storeKey`. */
  journalCreated(storeKey: string, jobId: string): void {
    this.journalCreators.set(storeKey, jobId);
  }

  journalCreator(storeKey: string): string | undefined {
    return this.journalCreators.get(storeKey);
  }

  loadStarted(server: string, key: string, at: number): void {
    const list = this.loads.get(pair(server, key)) ?? [];
    list.push({ startedAt: at, waitedHere: false });
    this.loads.set(pair(server, key), list);
  }

  /** A load of `key` on `server` waits on its own server (every one in flight, to be safe). */
  loadWaitsHere(server: string, key: string): void {
    for (const load of this.loads.get(pair(server, key)) ?? []) load.waitedHere = true;
  }

  /** The load that started at `startedAt` ended (the oldest one, if none matches exactly). */
  loadEnded(server: string, key: string, startedAt: number): PendingLoad {
    const list = this.loads.get(pair(server, key)) ?? [];
    const index = list.findIndex((load) => load.startedAt === startedAt);
    const [ended] = list.splice(Math.max(index, 0), 1); // not found (-1): the oldest
    return { server, key, startedAt, waitedHere: ended?.waitedHere ?? true };
  }

  /** A load that started at `startedAt` gave up on a store attempt still out (Data.Timeout). */
  loadTimedOut(server: string, key: string, startedAt: number): void {
    const list = this.timedOut.get(pair(server, key)) ?? [];
    list.push(startedAt);
    this.timedOut.set(pair(server, key), list);
  }

  /**
   * When the timed-out load whose late attempt just landed started (the oldest one), once:
   * that write is judged by what its own load read.
   */
  takeTimedOutLoad(server: string, key: string): number | undefined {
    return this.timedOut.get(pair(server, key))?.shift();
  }

  /** When the oldest timed-out load of `key` on `server` whose late write is awaited started. */
  oldestTimedOutLoad(server: string, key: string): number | undefined {
    return this.timedOut.get(pair(server, key))?.[0];
  }

  /** When the oldest load of `key` still in flight on `server` started. */
  oldestLoad(server: string, key: string): number | undefined {
    return this.loads.get(pair(server, key))?.[0]?.startedAt;
  }

  *pendingLoads(): Iterable<PendingLoad> {
    for (const [id, list] of this.loads) {
      if (list.length === 0) continue; // most pairs, once their loads ended: no split per step
      const [server, key] = id.split('|') as [string, string];
      for (const load of list) yield { server, key, ...load };
    }
  }

  /**
   * A load on `server` took the lock of `key` under a fresh `token`: from now on that is the
   * token of the server's session of the key (a server holds one session per key at a time).
   * Learned from the store, so a session whose load then failed (the driver closed as it
   * landed, and gave the lock back) is known too.
   */
  sessionTook(server: string, key: string, token: string): void {
    this.sessions.set(pair(server, key), token);
  }

  /** The token of the last session of `key` on `server`. */
  sessionToken(server: string, key: string): string | undefined {
    return this.sessions.get(pair(server, key));
  }

  presenceRead(
    server: string,
    key: string,
    holder: string,
    answer: PresenceAnswerName,
    at: number,
  ) {
    this.reads.set(`${pair(server, key)}|${holder}`, { answer, at });
  }

  /** The last presence answer about `holder` that a load of `key` on `server` read. */
  lastRead(server: string, key: string, holder: string) {
    return this.reads.get(`${pair(server, key)}|${holder}`);
  }

  tokenSeen(key: string, token: string): boolean {
    return this.tokens.get(key)?.has(token) ?? false;
  }

  /** Remembers a commit's tokens and, for the session that wrote it, its progress. */
  committed(key: string, token: string | undefined, seen: CommitSeen): void {
    if (token === undefined) return;
    if (!this.firstCommits.has(pair(key, token))) this.firstCommits.set(pair(key, token), seen.at);
    const set = this.tokens.get(key) ?? new Set<string>();
    set.add(token);
    this.tokens.set(key, set);
    this.commitCount += 1;
    this.commits.set(pair(key, token), { ...seen, number: this.commitCount });
  }

  /** When the first commit naming `token` on `key` landed (the lock's take), on the backend's clock. */
  firstCommitAt(key: string, token: string): number | undefined {
    return this.firstCommits.get(pair(key, token));
  }

  /** The last commit of the session `token` on `key`. */
  lastCommit(key: string, token: string): CommitNumbered | undefined {
    return this.commits.get(pair(key, token));
  }

  /**
   * Credits an acknowledged write of session `token` with its last commit, once: false when
   * that commit was already credited to an earlier acknowledgment (this one wrote nothing).
   */
  credit(key: string, token: string, commit: CommitNumbered): boolean {
    const id = pair(key, token);
    if ((this.credited.get(id) ?? 0) >= commit.number) return false;
    this.credited.set(id, commit.number);
    return true;
  }

  acknowledge(key: string, progress: number): void {
    this.acked.set(key, Math.max(progress, this.acked.get(key) ?? 0));
  }

  ackedProgress(key: string): number {
    return this.acked.get(key) ?? 0;
  }

  kicked(server: string, player: string, at: number): void {
    this.kicks.set(pair(server, player), at);
  }

  lastKick(server: string, player: string): number | undefined {
    return this.kicks.get(pair(server, player));
  }

  /** A server asked `holder` (a jobId) to release `key` under `token`. */
  requestSent(holder: string, key: string, token: string): void {
    this.requested.add(`${holder}|${key}|${token}`);
  }

  /** True when some server asked `holder` to release `key` under `token`. */
  wasRequested(holder: string, key: string, token: string): boolean {
    return this.requested.has(`${holder}|${key}|${token}`);
  }

  /** A session of `key` on `server` lost its lock to another server. */
  lockLost(server: string, key: string): void {
    this.lostLocks.add(pair(server, key));
  }

  /** True when some session of `key` on `server` ever lost its lock. */
  everLostLock(server: string, key: string): boolean {
    return this.lostLocks.has(pair(server, key));
  }

  /** An adoption on `server` kept the retained profile of `key` without saving it. */
  adoptedUnsaved(server: string, key: string): void {
    this.unsavedAdoptions.add(pair(server, key));
  }

  /** True (once) when the load of `key` on `server` that just ended was such an adoption. */
  takeUnsavedAdoption(server: string, key: string): boolean {
    return this.unsavedAdoptions.delete(pair(server, key));
  }

  /** The workload took `player` off `server`'s host (a leave, or a dropped connection). */
  removed(server: string, player: string, at: number): void {
    this.removals.set(pair(server, player), at);
  }

  lastRemoval(server: string, player: string): number | undefined {
    return this.removals.get(pair(server, player));
  }
}
