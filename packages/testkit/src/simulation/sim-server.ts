/** A simulated server: its plan, its test server, its status and what slowed its calls. */
import type { Profile } from '@datadriver/core';
import type { InjectedFault } from '@datadriver/core/testing';
import type { TestServer } from '../cluster/server.js';
import type { ServerPlan, SideKind } from './config.js';
import type { SimData } from './player-data.js';

export type ServerStatus = 'live' | 'crashed' | 'stopped';

/**
 * Something that slowed one server's own calls: a stall (its calls wait from `from` to `to`)
 * or injected latency (each hit adds its ms; counted in full while it can still hit).
 */
export interface Disturbance {
  readonly from: number;
  /** When it ended; `Infinity` while it lasts. */
  to: number;
  /** Injected latency in total (ms times hits); 0 for a stall, which counts by overlap. */
  readonly extraMs: number;
  /** For latency: true once it has hit as often as it may. */
  readonly spent?: () => boolean;
}

export class SimServer {
  #status: ServerStatus = 'live';
  readonly #disturbances: Disturbance[] = [];

  constructor(
    readonly plan: ServerPlan,
    readonly test: TestServer,
    /** For a second driver: the server it runs on, and what kind it is (config.ts). */
    readonly side?: { readonly on: SimServer; readonly kind: SideKind },
  ) {}

  /** A second driver lives and dies with its server. */
  get status(): ServerStatus {
    return this.side ? this.side.on.status : this.#status;
  }

  set status(status: ServerStatus) {
    this.#status = status;
  }

  /** What slowed this server's calls: a second driver's are its server's (one process). */
  get disturbances(): Disturbance[] {
    return this.side ? this.side.on.disturbances : this.#disturbances;
  }

  get label(): string {
    return this.plan.label;
  }

  get jobId(): string {
    return this.test.jobId;
  }

  get live(): boolean {
    return this.status === 'live';
  }

  /** The active profile of `key` here, if any. */
  profile(key: string): Profile<SimData> | undefined {
    const profile = this.test.profile(key);
    return profile?.active ? (profile as Profile<SimData>) : undefined;
  }

  /** Records a latency fault, counted until it has hit `times` times. */
  slowed(now: number, fault: InjectedFault, ms: number, times: number): void {
    this.disturbances.push({
      from: now,
      to: Number.POSITIVE_INFINITY,
      extraMs: ms * times,
      spent: () => fault.hits >= times,
    });
  }

  /** Records a stall that lasts until `to`. */
  stalled(now: number, to: number): void {
    this.disturbances.push({ from: now, to, extraMs: 0 });
  }

  /** How much this server's own calls were slowed within [from, to] (ms). */
  slowdownWithin(from: number, to: number): number {
    let total = 0;
    for (const disturbance of this.disturbances) {
      if (disturbance.from > to || disturbance.to < from) continue;
      total +=
        disturbance.extraMs > 0
          ? disturbance.extraMs
          : Math.min(to, disturbance.to) - Math.max(from, disturbance.from);
    }
    return total;
  }

  /** Closes latency disturbances that can no longer hit (called after each step). */
  settleDisturbances(now: number): void {
    for (const disturbance of this.disturbances) {
      if (disturbance.to === Number.POSITIVE_INFINITY && disturbance.spent?.()) {
        disturbance.to = now;
      }
    }
  }
}
