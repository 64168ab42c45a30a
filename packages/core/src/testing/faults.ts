import { sleep } from '../events/signal.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { Scheduler } from '../ports/scheduler.js';

/**
 * What can go wrong with a call to an in-memory port:
 * - `fail`: the call rejects and nothing is written;
 * - `lose-response`: the write commits, then the call rejects (the caller cannot tell);
 * - `stall`: the call waits until the fault is released (or for ever), then proceeds;
 * - `latency`: the call takes `ms` longer;
 * - `slow-ack`: the call does its work at once (a publish is delivered), but its promise
 *   settles `ms` later: a backend that acknowledges slowly;
 * - `drop`, `duplicate`, `delay`: a message is lost, delivered twice, or delivered `ms` late.
 */
export type FaultKind =
  | 'fail'
  | 'lose-response'
  | 'stall'
  | 'latency'
  | 'slow-ack'
  | 'drop'
  | 'duplicate'
  | 'delay';

export interface FaultSpec {
  readonly kind: FaultKind;
  /** The operation it hits (`update`, `get`, `set`, `publish`, `deliver`, `subscribe`); all when unset. */
  readonly operation?: string;
  /** The key or topic it hits; all when unset. */
  readonly key?: string;
  /** Hits only keys or topics for which this returns true. */
  readonly matches?: (key: string) => boolean;
  /** Lets this many matching calls pass before it starts hitting. */
  readonly skip?: number;
  /** How many calls it hits; 1 when unset, `Infinity` until removed. */
  readonly times?: number;
  /** For `latency`, `slow-ack` and `delay`. */
  readonly ms?: number;
}

export interface InjectedFault {
  /** Calls this fault has hit so far. */
  readonly hits: number;
  /** Stops the fault hitting new calls, and lets stalled calls proceed. */
  remove(): void;
  /** Lets calls stalled by this fault proceed (a `stall` keeps hitting until removed or used up). */
  release(): void;
}

interface ActiveFault extends InjectedFault {
  readonly spec: FaultSpec;
  left: number;
  skipped: number;
  stalled: Promise<void>;
}

export class Faults {
  private readonly active = new Set<ActiveFault>();

  inject(spec: FaultSpec): InjectedFault {
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fault: ActiveFault = {
      spec,
      left: spec.times ?? 1,
      skipped: 0,
      hits: 0,
      stalled,
      remove: () => {
        this.active.delete(fault);
        release();
      },
      release: () => release(),
    };
    this.active.add(fault);
    return fault;
  }

  clear(): void {
    for (const fault of [...this.active]) fault.remove();
  }

  /** The faults that hit this call, each used up by one. */
  take(operation: string, key: string): ActiveFault[] {
    const hit: ActiveFault[] = [];
    for (const fault of this.active) {
      const { spec } = fault;
      if (spec.operation !== undefined && spec.operation !== operation) continue;
      if (spec.key !== undefined && spec.key !== key) continue;
      if (spec.matches !== undefined && !spec.matches(key)) continue;
      if (fault.skipped < (spec.skip ?? 0)) {
        fault.skipped += 1;
        continue;
      }
      hit.push(fault);
      (fault as { hits: number }).hits += 1;
      fault.left -= 1;
      if (fault.left <= 0) this.active.delete(fault);
    }
    return hit;
  }
}

/** Applies the faults that act before a call does its work: stall, latency, fail. */
export async function beforeCall(
  faults: readonly ActiveFault[],
  scheduler: Scheduler | undefined,
  latencyMs: number,
  what: string,
): Promise<void> {
  for (const fault of faults) if (fault.spec.kind === 'stall') await fault.stalled;
  const extra = faults
    .filter((fault) => fault.spec.kind === 'latency')
    .reduce((sum, fault) => sum + (fault.spec.ms ?? 0), 0);
  if (latencyMs + extra > 0) {
    if (!scheduler) throw new Error('in-memory latency needs a scheduler');
    await sleep(scheduler, latencyMs + extra);
  }
  if (faults.some((fault) => fault.spec.kind === 'fail')) {
    throw new DataDriverError(ErrorCode.BackendFailed, `injected failure of ${what}`, {
      cause: new Error('injected fault'),
    });
  }
}

/** Applies the faults that act after a call did its work: a slow acknowledgement. */
export async function afterCall(
  faults: readonly ActiveFault[],
  scheduler: Scheduler | undefined,
): Promise<void> {
  const ackMs = faults
    .filter((fault) => fault.spec.kind === 'slow-ack')
    .reduce((sum, fault) => sum + (fault.spec.ms ?? 0), 0);
  if (ackMs <= 0) return;
  if (!scheduler) throw new Error('an in-memory slow acknowledgement needs a scheduler');
  await sleep(scheduler, ackMs);
}

export function losesResponse(faults: readonly ActiveFault[]): boolean {
  return faults.some((fault) => fault.spec.kind === 'lose-response');
}

export function lostResponseError(what: string): DataDriverError {
  return new DataDriverError(ErrorCode.BackendFailed, `injected lost response of ${what}`, {
    cause: new Error('injected fault'),
  });
}

export type { ActiveFault };
