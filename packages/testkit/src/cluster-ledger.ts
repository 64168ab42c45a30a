/**
 * What a cluster's servers spent on real time that the backend's `scale` does not shrink: each
 * round trip to the backend, each message's flight from publish to delivery, and each timer's
 * lateness past its due time. A wait on a real backend is the scaled timers it waited on plus
 * this; so the slack its upper bound gets is what the ledger recorded during that very wait,
 * not a figure measured once before the load on the machine changed.
 */

/**
 * `timer`: a normal-priority timer fired late (background beats and autosaves are never on a
 * wait's path); `store`: a store call; `presence`: a presence read (beats are background);
 * `message`: a message from the start of its publish to its delivery to a subscriber;
 * `subscribe`: a subscription being made.
 */
export type LedgerKind = 'timer' | 'store' | 'presence' | 'message' | 'subscribe';

export const LEDGER_KINDS: readonly LedgerKind[] = [
  'timer',
  'store',
  'presence',
  'message',
  'subscribe',
];

export interface LedgerEntry {
  readonly kind: LedgerKind;
  /** The label of the server that made the call, received the message or owned the timer. */
  readonly server: string;
  /** Cluster time (ms) the call started, the message was published, the timer was due. */
  readonly from: number;
  /** Cluster time (ms) the call settled, the message arrived, the timer fired. */
  readonly to: number;
  readonly what: string;
}

/** A stretch of cluster time (ms): a wait from its start to its end. */
export interface Span {
  readonly from: number;
  readonly to: number;
}

export interface Spent {
  readonly ms: number;
  readonly count: number;
}

/** The unscaled time a span held, each entry cut to the span. */
export interface Unscaled {
  /**
   * The time (ms) during which at least one entry ran: two servers' calls at once count once,
   * as they delay a wait at most once. What the wait spent on neither a call, a flight nor a
   * late timer was spent on scaled timers (or the servers' own work between calls).
   */
  readonly totalMs: number;
  /** Each kind's entries summed, overlaps and all: where the time went. */
  readonly byKind: Readonly<Record<LedgerKind, Spent>>;
}

/**
 * The least slack on real time (ms): what no call or timer sees, the servers' own work between
 * their calls and a time slice lost in it, on a shared 2-core machine.
 */
export const SLACK_FLOOR_MS = 60;

/** The slack an upper bound gets for `unscaled`: all of it, and at least the floor. */
export function slackOf(unscaled: Unscaled): number {
  return Math.max(SLACK_FLOOR_MS, Math.ceil(unscaled.totalMs));
}

interface Flight {
  readonly topic: string;
  readonly at: number;
  landed: boolean;
}

export class TimeLedger {
  private readonly entries: LedgerEntry[] = [];
  /** Calls started and not settled yet: each runs until now, as far as a span can tell. */
  private readonly running = new Set<Omit<LedgerEntry, 'to'>>();
  /** Messages published, by topic and body: a delivery is the flight of the latest. */
  private readonly flights = new Map<string, Flight[]>();

  constructor(readonly now: () => number) {}

  /** Times `call` as one entry of `kind`, however it settles. */
  async timed<T>(kind: LedgerKind, server: string, what: string, call: () => Promise<T>) {
    const started = { kind, server, from: this.now(), what };
    this.running.add(started);
    try {
      return await call();
    } finally {
      this.running.delete(started);
      this.entries.push({ ...started, to: this.now() });
    }
  }

  /** A timer of `server` due at `due` fires now. */
  fired(server: string, due: number, what: string): void {
    const now = this.now();
    if (now > due) this.entries.push({ kind: 'timer', server, from: due, to: now, what });
  }

  published(topic: string, message: unknown): void {
    const key = flightKey(topic, message);
    const flights = this.flights.get(key) ?? [];
    flights.push({ topic, at: this.now(), landed: false });
    this.flights.set(key, flights);
  }

  /**
   * `message` reached `server`: its flight ran from the latest publish of that same body to
   * that topic. A repeated request has the body of the first, so a repeat that got through is
   * never timed from the lost first one (which would pass a repeat's wait off as flight).
   */
  delivered(server: string, topic: string, message: unknown): void {
    const flights = this.flights.get(flightKey(topic, message));
    const flight = flights?.findLast((candidate) => !candidate.landed);
    if (!flight) return; // published by no server of this cluster
    flight.landed = true;
    this.entries.push({ kind: 'message', server, from: flight.at, to: this.now(), what: topic });
  }

  /**
   * The entries that overlap `span`, in the order they started; a call still running counts
   * as running until now (a wait still going on has spent that much on it already). With
   * `inFlight`, so does each message published and not delivered yet: for a wait still going
   * on, never for a bound (a message to no subscriber would stay in flight for ever).
   */
  during(span: Span, options: { readonly inFlight?: boolean } = {}): LedgerEntry[] {
    const now = this.now();
    const running = [...this.running].map((entry) => ({ ...entry, to: now }));
    const flying = options.inFlight ? this.flying(now) : [];
    return [...this.entries, ...running, ...flying]
      .filter((entry) => entry.to > span.from && entry.from < span.to)
      .sort((a, b) => a.from - b.from);
  }

  private flying(now: number): LedgerEntry[] {
    return [...this.flights.values()].flatMap((flights) =>
      flights
        .filter((flight) => !flight.landed)
        .map((flight) => ({
          kind: 'message' as const,
          server: '-',
          from: flight.at,
          to: now,
          what: `${flight.topic} (in flight)`,
        })),
    );
  }

  /** The unscaled time inside `span`: its entries' union, and each kind's sum. */
  unscaledIn(span: Span, options: { readonly inFlight?: boolean } = {}): Unscaled {
    const byKind = Object.fromEntries(
      LEDGER_KINDS.map((kind) => [kind, { ms: 0, count: 0 }]),
    ) as Record<LedgerKind, { ms: number; count: number }>;
    let totalMs = 0;
    let coveredTo = span.from;
    for (const entry of this.during(span, options)) {
      const from = Math.max(entry.from, span.from);
      const to = Math.min(entry.to, span.to);
      byKind[entry.kind].ms += to - from;
      byKind[entry.kind].count += 1;
      // Entries come in the order they started: each adds what lies past the ones before.
      if (to > coveredTo) {
        totalMs += to - Math.max(from, coveredTo);
        coveredTo = to;
      }
    }
    return { totalMs, byKind };
  }
}

function flightKey(topic: string, message: unknown): string {
  return `${topic}\n${JSON.stringify(message)}`;
}

/** One line: `store 41 ms in 6 calls, message 3 ms in 2, ...` (kinds with no entry left out). */
export function describeUnscaled(unscaled: Unscaled): string {
  const parts = LEDGER_KINDS.filter((kind) => unscaled.byKind[kind].count > 0).map((kind) => {
    const { ms, count } = unscaled.byKind[kind];
    return `${kind} ${Math.round(ms)} ms in ${count}`;
  });
  return parts.length === 0 ? 'nothing recorded' : parts.join(', ');
}
