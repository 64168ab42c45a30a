/**
 * What a cluster's servers spent on real time that the backend's `scale` does not shrink: each
 * round trip to the backend, each message's flight from publish to delivery (and who sent it),
 * and each timer from when it was armed to when it fired. A wait on a real backend is the
 * scaled timers it waited on plus the calls and flights it waited on; `criticalPath` walks
 * that chain back through the ledger, and the slack its upper bound gets comes from that
 * chain alone, measured during that very wait.
 */

/**
 * `timer`: a normal-priority timer firing (background beats and autosaves are never on a
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
  /** A message: the server that published it (a wait's path goes on from there). */
  readonly publisher?: string;
  /**
   * A timer: when it was armed. Its delay ran from here to `from` (its due time) on a scaled
   * timer, not on the machine: only `from` to `to`, how late it fired, is unscaled.
   */
  readonly armedAt?: number;
  /**
   * Where it began (a call started, a timer was armed, a message was published) and ended in
   * the ledger's order of happenings, which is finer than a millisecond: a step's cause ended
   * before the step began. Unset for a timer armed where no order was taken.
   */
  readonly startOrder?: number;
  readonly endOrder?: number;
  /** A call that rejected: its error's code (where it has one) and message, for a failure's report. */
  readonly failed?: string;
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

interface Flight {
  readonly topic: string;
  readonly at: number;
  readonly order: number;
  readonly publisher: string;
  landed: boolean;
}

/**
 * `error`'s code and message: a DataDriver or Node error's `code`, a gRPC error's numeric one
 * (Pub/Sub), or the AWS SDK's, which is its `name` (DynamoDB's `ThrottlingException`).
 */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code: unknown = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') return `${code}: ${error.message}`;
  return error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
}

export class TimeLedger {
  private readonly entries: LedgerEntry[] = [];
  /** Calls started and not settled yet: each runs until now, as far as a span can tell. */
  private readonly running = new Set<Omit<LedgerEntry, 'to'>>();
  /** Messages published, by topic and body: a delivery is the flight of the latest. */
  private readonly flights = new Map<string, Flight[]>();
  /** Crashed servers: what reaches their still-open subscriptions is on no wait's path. */
  private readonly silenced = new Set<string>();

  private order = 0;

  constructor(readonly now: () => number) {}

  /** The next number in the ledger's order of happenings (see `LedgerEntry.startOrder`). */
  mark(): number {
    this.order += 1;
    return this.order;
  }

  /** Times `call` as one entry of `kind`, however it settles. */
  async timed<T>(kind: LedgerKind, server: string, what: string, call: () => Promise<T>) {
    const started = { kind, server, from: this.now(), what, startOrder: this.mark() };
    this.running.add(started);
    let failed: string | undefined;
    try {
      return await call();
    } catch (error) {
      failed = describeFailure(error);
      throw error;
    } finally {
      this.running.delete(started);
      const ended = { ...started, to: this.now(), endOrder: this.mark() };
      this.entries.push(failed === undefined ? ended : { ...ended, failed });
    }
  }

  /**
   * A timer of `server` armed at `armedAt` and due at `due` fires now. Every firing is kept, an
   * on-time one too: a wait's path runs through its timers (see `criticalPath`).
   */
  fired(server: string, armedAt: number, due: number, what: string, armedOrder?: number): void {
    const now = this.now();
    const from = Math.min(due, now);
    this.entries.push({
      kind: 'timer',
      server,
      from,
      to: now,
      what,
      armedAt: Math.min(armedAt, from),
      ...(armedOrder === undefined ? {} : { startOrder: armedOrder }),
      endOrder: this.mark(),
    });
  }

  /** `server` crashed: deliveries to it are no longer recorded (nothing waits on them). */
  silence(server: string): void {
    this.silenced.add(server);
  }

  published(topic: string, message: unknown, publisher = '-'): void {
    const key = flightKey(topic, message);
    const flights = this.flights.get(key) ?? [];
    flights.push({ topic, at: this.now(), order: this.mark(), publisher, landed: false });
    this.flights.set(key, flights);
  }

  /**
   * `message` reached `server`: its flight ran from the latest publish of that same body to
   * that topic. A repeated request has the body of the first, so a repeat that got through is
   * never timed from the lost first one (which would pass a repeat's wait off as flight).
   */
  delivered(server: string, topic: string, message: unknown): void {
    if (this.silenced.has(server)) return;
    const flights = this.flights.get(flightKey(topic, message));
    const flight = flights?.findLast((candidate) => !candidate.landed);
    if (!flight) return; // published by no server of this cluster
    flight.landed = true;
    const { at: from, order: startOrder, publisher } = flight;
    const to = this.now();
    const endOrder = this.mark();
    this.entries.push({
      kind: 'message',
      server,
      from,
      to,
      what: topic,
      publisher,
      startOrder,
      endOrder,
    });
  }

  /**
   * The entries that overlap `span` (an instant one at its very end too: a read that ended the
   * wait), in the order they started; a call still running counts
   * as running until now (a wait still going on has spent that much on it already). With
   * `inFlight`, so does each message published and not delivered yet: for a wait still going
   * on, never for a bound (a message to no subscriber would stay in flight for ever).
   */
  during(span: Span, options: { readonly inFlight?: boolean } = {}): LedgerEntry[] {
    const now = this.now();
    const running = [...this.running].map((entry) => ({ ...entry, to: now }));
    const flying = options.inFlight ? this.flying(now) : [];
    return [...this.entries, ...running, ...flying]
      .filter((entry) => entry.to > span.from && entry.from <= span.to)
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
