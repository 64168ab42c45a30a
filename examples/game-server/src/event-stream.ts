/**
 * `GET /events`: the watchers of a server's events (Server-Sent Events) and what they are sent:
 * each event as it happens, or, `batched` (`--batch-events`, as the bench runs its servers),
 * kept and shipped together once no load, handoff request or release is in flight here and the
 * server has been quiet for `QUIET_MS` (or, after answering a request, for `ANSWER_QUIET`
 * times as long as it took to answer: the requester's own load is still on its way), or at the latest
 * `MAX_DELAY_MS` after the first one kept. Encoding and writing each event as it happened puts JSON, a socket write and a wake-up
 * of the watcher's process inside every hand-over the server takes part in: a fifth to a
 * quarter of a hop between two processes, which the bench must not count as DataDriver's.
 * Not the default: the Try it page starts its story once a player's load is reported, and
 * expects that load's own events to have arrived by then.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { encodeEvent } from './event-wire.js';

/** Longer than the last leg of a hand-over after this server's part; a watcher hardly notices. */
export const QUIET_MS = 10;
/**
 * After answering a request, stay quiet this many times as long as the answer took (its one
 * release write): the requester's load still reads and writes, each a call as slow as that
 * write, or slower from a cold vCPU. At 2, the holder's events still reached the bench
 * during 18 to 24 of 200 DynamoDB-store hops (a store call of 2 to 4 ms).
 */
export const ANSWER_QUIET = 4;
/**
 * A busy server still ships this often. Inside the Try it page's ordering window (150 ms),
 * which sorts two servers' streams by the time each event happened.
 */
export const MAX_DELAY_MS = 100;

/** The events that start something in flight on this server, and those that end it. */
const ENDS: Partial<Record<DataDriverEvent['type'], readonly DataDriverEvent['type'][]>> = {
  'load.started': ['load.loaded', 'load.failed'],
  'handoff.request.received': ['handoff.reply.sent'],
  'profile.releasing': ['profile.released', 'profile.release-failed', 'lock.lost'],
};

/** `ENDS` the other way round: for each ending type, the types it ends. */
const STARTS = new Map<DataDriverEvent['type'], readonly DataDriverEvent['type'][]>();
for (const [start, ends] of Object.entries(ENDS)) {
  const type = start as DataDriverEvent['type'];
  for (const end of ends ?? []) STARTS.set(end, [...(STARTS.get(end) ?? []), type]);
}

/** What the stream writes to: an HTTP response, in the server. */
export interface Watcher {
  write(chunk: string): unknown;
  end(): unknown;
}

export interface EventStreamOptions {
  /** Ship events in batches, once quiet, instead of each as it happens. */
  readonly batched?: boolean;
  /** Milliseconds, sub-millisecond; `performance.now` unless a test gives another. */
  readonly now?: () => number;
}

export class EventStream {
  private readonly watchers = new Set<Watcher>();
  private kept: DataDriverEvent[] = [];
  private firstKeptAt = 0;
  /** What is in flight, as `<starting type> <key>`, and since when. */
  private readonly inFlight = new Map<string, number>();
  /** Stay quiet until then: a requester is still finishing its load. */
  private quietUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires, on `now`: a later due time waits for it and re-arms then. */
  private timerAt = 0;
  /** When the kept events are due, on `now`. */
  private dueAt = 0;
  private readonly now: () => number;

  constructor(private readonly options: EventStreamOptions = {}) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Starts sending to `watcher`; returns the function that stops it. */
  add(watcher: Watcher): () => void {
    watcher.write(': connected\n\n');
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Sends `event`, or keeps it for the next shipment; nothing is kept while nobody watches. */
  push(event: DataDriverEvent): void {
    if (this.watchers.size === 0) return;
    if (!this.options.batched) {
      this.kept.push(event);
      this.flush();
      return;
    }
    const now = this.now();
    this.track(event, now);
    if (this.kept.length === 0) this.firstKeptAt = now;
    this.kept.push(event);
    const latest = this.firstKeptAt + MAX_DELAY_MS - now;
    const quiet = Math.max(QUIET_MS, this.quietUntil - now);
    const wait = this.inFlight.size === 0 ? Math.min(quiet, latest) : latest;
    this.dueAt = now + wait;
    // A timer already armed to fire no later stays: when it fires it waits out the rest. Armed
    // for QUIET_MS at most, the first event's timer is early enough for the rest of a
    // hand-over's, which then cost no timer on the path the next server waits on.
    if (this.timer === undefined || this.dueAt < this.timerAt) {
      this.schedule(now, Math.min(wait, QUIET_MS));
    }
  }

  /**
   * Node's timers count whole milliseconds from the loop's last tick, so one can fire up to a
   * millisecond before its delay has passed: wait out what is left before shipping.
   */
  private schedule(now: number, wait: number): void {
    clearTimeout(this.timer);
    this.timerAt = now + wait;
    this.timer = setTimeout(() => this.due(), Math.max(0, wait));
  }

  private due(): void {
    this.timer = undefined;
    const now = this.now();
    const left = this.dueAt - now;
    if (left > 0) this.schedule(now, Math.ceil(left));
    else this.flush();
  }

  /** Ships every kept event now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // Anything still in flight is forgotten: one whose end never came (a load cancelled by the
    // player leaving, say) must not hold every later shipment to the longest delay.
    this.inFlight.clear();
    if (this.kept.length === 0) return;
    const lines = this.kept.map((event) => `data: ${encodeEvent(event)}\n\n`).join('');
    this.kept = [];
    for (const watcher of this.watchers) watcher.write(lines);
  }

  private track(event: DataDriverEvent, now: number): void {
    if (!('key' in event)) return;
    if (ENDS[event.type]) this.inFlight.set(`${event.type} ${event.key}`, now);
    for (const start of STARTS.get(event.type) ?? []) {
      const since = this.inFlight.get(`${start} ${event.key}`);
      this.inFlight.delete(`${start} ${event.key}`);
      if (start === 'handoff.request.received' && since !== undefined) {
        this.quietUntil = Math.max(this.quietUntil, now + ANSWER_QUIET * (now - since));
      }
    }
  }

  /** Ships what is kept and ends every watcher's stream (the server is stopping). */
  end(): void {
    this.flush();
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
  }
}
