/**
 * A hand-over's second path: the holder's release chain to the reply the waiting server acted
 * on. The wait lasted as long as the later of that chain and the waiting server's own path
 * (its parks and reads while the reply was on its way), so its bound gets the larger slack of
 * the two, each measured and capped on its own.
 */
import {
  type CriticalPath,
  criticalPath,
  endedBefore,
  joinedPath,
  later,
  type PathSlack,
  pathSlack,
  type Wait,
  walkBack,
} from './critical-path.js';
import type { LedgerEntry, Span, TimeLedger } from './ledger.js';

/**
 * The reply `path` acted on: the latest message to the waiting server from another server that
 * landed inside the wait and before the path's last step ended. Where it landed before that
 * step began, the step came after it; where it landed while the step was in flight (the
 * waiting server's own retry, woken by a park while a slow bus held the request, was already
 * taking the freed lock), the wait could end no sooner by the reply: that step's rest is the
 * reply's tail. None if the path itself ends on it or no such message landed.
 */
/** Whether `reply` landed before `step` began, or while it was in flight. */
function landedBefore(reply: LedgerEntry, step: LedgerEntry): boolean {
  if (reply.to < step.from) return true;
  if (reply.to === step.from) return endedBefore(reply, step.startOrder);
  if (reply.to < step.to) return true;
  return reply.to === step.to && endedBefore(reply, step.endOrder);
}

function actedOn(entries: readonly LedgerEntry[], wait: Wait, path: CriticalPath) {
  const last = path.steps.at(-1);
  let reply: LedgerEntry | undefined;
  for (const entry of entries) {
    if (entry.kind !== 'message' || entry.server !== wait.server) continue;
    if (entry.publisher === undefined || entry.publisher === wait.server) continue;
    if (entry.to <= wait.from || entry.to > wait.to) continue;
    if (entry.to === wait.to && !endedBefore(entry, wait.endOrder)) continue;
    if (last && !landedBefore(entry, last.entry)) continue;
    reply = reply === undefined ? entry : later(reply, entry);
  }
  return reply;
}

/**
 * The second path a hand-over's wait can take: the holder's release chain up to the reply the
 * waiting server acted on (the request's delivery, the holder's release writes, the reply's
 * flight, and whatever the waiting server did before its request), then the waiting server's
 * own steps from that reply's landing to the wait's end. Where the reply lands during the
 * waiting server's park or presence read, `criticalPath` runs through those instead, and the
 * holder's real time, which the wait did wait on, is off it. Undefined where no reply from
 * another server landed before the wait's last step, or `criticalPath` already runs through it.
 */
export function replyPath(ledger: TimeLedger, wait: Wait): CriticalPath | undefined {
  const entries = ledger.during(wait);
  const main = criticalPath(ledger, wait);
  const reply = actedOn(entries, wait, main);
  if (reply === undefined || main.steps.some((step) => step.entry === reply)) return undefined;
  const used = new Set<LedgerEntry>([reply]);
  const tail = walkBack(
    entries,
    reply.to,
    { at: wait.to, server: wait.server, order: wait.endOrder },
    used,
  );
  const flight = {
    steps: [{ entry: reply, from: Math.max(reply.from, wait.from), to: reply.to }],
    ownWork: [],
  };
  const chain = walkBack(
    entries,
    wait.from,
    {
      at: Math.max(wait.from, reply.from),
      server: reply.publisher ?? wait.server,
      order: reply.startOrder,
    },
    used,
  );
  return joinedPath(wait.to, tail, flight, chain);
}

/**
 * The holder's write the wait's last call found: the latest store call of another server on
 * the same record that ended before that call began. None unless the path ends on a store
 * call, or where the path already runs through it.
 */
function freedBy(entries: readonly LedgerEntry[], wait: Wait, path: CriticalPath) {
  const last = path.steps.at(-1)?.entry;
  if (last?.kind !== 'store') return undefined;
  let write: LedgerEntry | undefined;
  for (const entry of entries) {
    if (entry.kind !== 'store' || entry.what !== last.what) continue;
    if (entry.server === wait.server || entry.server === 'scenario') continue;
    if (entry.to <= wait.from || !landedBefore(entry, last) || entry.to > last.from) continue;
    write = write === undefined ? entry : later(write, entry);
  }
  if (write === undefined || path.steps.some((step) => step.entry === write)) return undefined;
  return write;
}

/**
 * A hand-over's third path: the holder's release chain to the write that freed the record (the
 * request's delivery, the holder's release writes), then the waiting server's own steps from
 * that write to the wait's end. Where a slow bus held the request, the waiting server parked
 * and retried on its own, and its retry after the release took the lock before the reply
 * landed: its own path runs through its parks, the reply path does not exist, and the holder's
 * real time, which the wait did wait on, is on neither. Undefined where no other server wrote
 * the record before the wait's last call, or that write was not set off by the waiting
 * server's request.
 */
export function releasePath(ledger: TimeLedger, wait: Wait): CriticalPath | undefined {
  const entries = ledger.during(wait);
  const write = freedBy(entries, wait, criticalPath(ledger, wait));
  if (write === undefined) return undefined;
  const used = new Set<LedgerEntry>();
  const tail = walkBack(
    entries,
    write.to,
    { at: wait.to, server: wait.server, order: wait.endOrder },
    used,
  );
  const chain = walkBack(
    entries,
    wait.from,
    { at: write.to, server: write.server, order: (write.endOrder ?? 0) + 1 },
    used,
  );
  // Only a write the waiting server's request set off: not an autosave the holder made anyway.
  const asked = chain.steps.some(
    ({ entry }) => entry.kind === 'message' && entry.publisher === wait.server,
  );
  return asked ? joinedPath(wait.to, tail, chain) : undefined;
}

/** The slack a wait's bound gets, and the path it came from. */
export interface WaitSlack extends PathSlack {
  readonly path: CriticalPath;
  /** True where the path is the holder's release chain to the reply (see `replyPath`). */
  readonly viaReply: boolean;
  /** True where it is the holder's chain to the write that freed the record (`releasePath`). */
  readonly viaRelease?: boolean;
}

/**
 * The largest slack of the wait's paths, each measured and capped on its own (see
 * `pathSlack`): the waiting server's `criticalPath`, the holder's release chain to the reply
 * it acted on (`replyPath`), and the holder's chain to the write its last call found freed
 * (`releasePath`). The wait lasted as long as the latest of them, so any may be what it
 * waited on; a scaled timer on any (a request repeat before the request that got through, a
 * park after the reply) is slack on none.
 */
export function waitSlack(
  ledger: TimeLedger,
  wait: Wait,
  scale: number,
  fixed?: Span,
  lag: readonly Span[] = [],
): WaitSlack {
  const path = criticalPath(ledger, wait);
  const candidates: WaitSlack[] = [
    { ...pathSlack(path, scale, fixed, lag), path, viaReply: false },
  ];
  const viaReply = replyPath(ledger, wait);
  if (viaReply !== undefined) {
    candidates.push({ ...pathSlack(viaReply, scale, fixed, lag), path: viaReply, viaReply: true });
  }
  // The write's chain is the reply's without its flight: only where no reply was acted on.
  const viaRelease = viaReply === undefined ? releasePath(ledger, wait) : undefined;
  if (viaRelease !== undefined) {
    const slack = pathSlack(viaRelease, scale, fixed, lag);
    candidates.push({ ...slack, path: viaRelease, viaReply: false, viaRelease: true });
  }
  // The first of equals: the waiting server's own path, then the reply's.
  return candidates.reduce((best, next) => (next.slackMs > best.slackMs ? next : best));
}
