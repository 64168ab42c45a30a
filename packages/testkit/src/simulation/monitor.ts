/**
 * Watches a run: every store commit and every driver event goes to the trace and to the
 * checks as it happens, and the step checks run after each step. Collects the violations.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { type CheckContext, checkCommit } from './commit-checks.js';
import { checkEvent } from './event-checks.js';
import { type FlowName, flowsOfCommit, flowsOfEvent } from './flows.js';
import { Invariant, type Violation, type ViolationSink } from './invariants.js';
import { checkMessageCommit, MessageHistory } from './message-checks.js';
import { PRESENCE_LIFETIME_MS, type PresenceWrite, type StoreCommit } from './recording-backend.js';
import { checkStep } from './step-checks.js';
import { commitLine, eventLine, journalLine } from './trace-lines.js';
import { Tracker } from './tracker.js';
import type { SimServer, World } from './world.js';

export class Monitor implements ViolationSink {
  readonly violations: Violation[] = [];
  readonly tracker = new Tracker();
  /** Events seen, by type: the run's statistics. */
  readonly counts = new Map<string, number>();
  /** What the commits showed of messages (message-checks.ts). */
  readonly messages = new MessageHistory();
  private world: World | undefined;

  /** The backend exists before the world does; commits before this are not judged. */
  attach(world: World): void {
    this.world = world;
  }

  report(violation: Omit<Violation, 'at'>): void {
    const world = this.world;
    const at = world?.now() ?? 0;
    // Tokens carry the cluster's namespace: a replay in another process prints the same.
    const message = world ? world.trace.clean(violation.message) : violation.message;
    this.violations.push({ ...violation, message, at });
    const text = `VIOLATION ${violation.invariant}: ${violation.message}`;
    world?.trace.add(at, text, violation.server, violation.key);
  }

  onCommit(commit: StoreCommit): void {
    const world = this.world;
    if (!world) return;
    this.guard(() => {
      if (world.config.messages) checkMessageCommit(world, this, this.messages, commit);
      const key = world.playerKeyOf(commit.key);
      // Another driver's records (another name): the drivers-apart check watches those.
      if (key === undefined && world.tradeIdOf(commit.key) === undefined) return;
      const server = world.writerOf(commit)?.label ?? world.nameOf(commit.jobId);
      if (world.trace.on) {
        if (key === undefined) world.trace.add(commit.at, journalLine(world, commit), server);
        else world.trace.add(commit.at, commitLine(commit), server, key);
      }
      checkCommit(commit, this.context(world));
      flowsOfCommit(world, commit, this.flow);
    });
  }

  /** presence-lifetime: every beat asks for the contract's lifetime. */
  onPresenceWrite(write: PresenceWrite): void {
    const world = this.world;
    if (!world || write.ttlSeconds * 1000 === PRESENCE_LIFETIME_MS) return;
    this.report({
      invariant: Invariant.PresenceLifetime,
      server: world.nameOf(write.key),
      message: `${world.nameOf(write.key)} beat presence with a ${write.ttlSeconds} s TTL; the key must live ${PRESENCE_LIFETIME_MS / 1000} s`,
    });
  }

  onEvent(server: SimServer, event: DataDriverEvent): void {
    const world = this.world;
    if (!world) return;
    this.count(event.type === 'lock.taken' ? `lock.taken.${event.reason}` : event.type);
    this.guard(() => {
      const line = world.trace.on && eventLine(world, event);
      if (line)
        world.trace.add(world.now(), line, server.label, 'key' in event ? event.key : undefined);
      checkEvent(server, event, this.context(world));
      flowsOfEvent(world, this.tracker, server, event, this.flow);
    });
  }

  afterStep(): void {
    const world = this.world;
    if (world) this.guard(() => checkStep(this.context(world)));
  }

  /** A flow of flows.ts ran: counted, and marked reached for this run. */
  readonly flow = (name: FlowName): void => {
    this.count(`flow.${name}`);
    this.counts.set(`reached.${name}`, 1);
  };

  count(name: string): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  private context(world: World): CheckContext {
    return { world, tracker: this.tracker, sink: this };
  }

  /** A check that throws is a bug in the simulator, reported rather than breaking the store. */
  private guard(check: () => void): void {
    try {
      check();
    } catch (error) {
      this.report({
        invariant: Invariant.UnexpectedError,
        message: `a check threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      });
    }
  }
}
