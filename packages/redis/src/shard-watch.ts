/**
 * Keeps a sharded messenger's subscriptions on a Redis Cluster delivering.
 *
 * When a master fails over (or fails back, or a slot migrates), the node that loses a slot
 * drops its shard channels' subscribers with a SUNSUBSCRIBE push they never asked for. ioredis
 * 5 reads that push as a reply to a command, finds none queued, and reports a "Command queue
 * state error" as the Cluster client's `nodeError`; its `ClusterSubscriberGroup` resubscribes
 * only when a refresh of the slot map shows a new topology. A client that only subscribes never
 * meets the MOVED that would refresh it (nor does a busy one whose commands go to other
 * shards), `slotsRefreshInterval` is off by default, and after a fail-back the map reads as it
 * was: the channel stays silent for good, with no subscriber counted on either node.
 *
 * So the watch checks, by echo: it publishes a probe on each channel and expects it back. A
 * channel whose probe does not come back in time is subscribed again once the client has read
 * its slot map afresh (`Subscriber.renew`). Checks run at once on a sign of trouble from the
 * Cluster (`nodeError`, `-node`), and every `intervalMs` anyway. While renewals do not bring
 * the probes back, checks come at doubling waits (up to 10 s), and one warning says so.
 */
import { randomBytes } from 'node:crypto';
import { describeError, type Logger } from '@datadriver/core/ports';

/** How often a sharded messenger on a Cluster checks when nothing signals trouble (ms). */
export const SHARD_CHECK_INTERVAL_MS = 10_000;
/** How long a probe may take to come back before its channel counts as lost (ms). */
export const PROBE_TIMEOUT_MS = 500;
/** How soon a check follows a first renewal, to see it deliver (ms); doubled after each one more. */
export const RECHECK_MS = 250;
/** The longest wait between checks while renewals do not bring the probes back (ms). */
export const MAX_RECHECK_MS = 10_000;
/**
 * Payloads of probes start with this; not JSON, so any other messenger on the channel drops
 * them as it drops every payload that is not a JSON object.
 */
const PROBE_MARK = 'dd-probe:';

export interface ShardWatchPorts {
  /** The channels subscribed now. */
  channels(): readonly string[];
  /** Publishes `payload` on `channel` (SPUBLISH through the user's client). */
  publish(channel: string, payload: string): Promise<unknown>;
  /** Subscribes to `lost` again, on the master that serves each now. */
  renew(lost: readonly string[]): Promise<void>;
  readonly logger: Logger;
  /** How often to check when nothing signals trouble (ms). */
  readonly intervalMs: number;
}

export class ShardWatch {
  private readonly id = randomBytes(6).toString('base64url');
  private probes = 0;
  private readonly waiting = new Map<string, () => void>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** Checks in a row that found a channel lost: each renewal since the last good check. */
  private failures = 0;

  constructor(private readonly ports: ShardWatchPorts) {}

  /** Starts the periodic checks (idempotent). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(this.ports.intervalMs);
  }

  /** Stops checking; probes in flight count as delivered. */
  stop(): void {
    this.stopped = true;
    // A later start (a new first subscription) begins afresh: alarms check at once again.
    this.failures = 0;
    clearTimeout(this.timer);
    for (const arrived of this.waiting.values()) arrived();
    this.waiting.clear();
  }

  /** A sign that a subscription may be lost: check now, unless renewals are backing off. */
  alarm(): void {
    if (!this.stopped && this.failures === 0) void this.check();
  }

  /** True when `payload` is a probe (this watch's or another's): not a message to deliver. */
  receive(payload: string): boolean {
    if (!payload.startsWith(PROBE_MARK)) return false;
    this.waiting.get(payload)?.();
    return true;
  }

  /**
   * One check at a time, which schedules the next; an alarm during a check runs one more after
   * it, unless that check found a channel lost (its renewal's recheck is scheduled).
   */
  check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    clearTimeout(this.timer);
    this.checking = this.checkOnce().finally(() => {
      this.checking = undefined;
      const again = this.again;
      this.again = false;
      if (again && !this.stopped && this.failures === 0) void this.check();
    });
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    const channels = this.ports.channels();
    if (this.stopped || channels.length === 0) return;
    const lost = (await Promise.all(channels.map((channel) => this.probe(channel)))).filter(
      (channel): channel is string => channel !== undefined,
    );
    if (this.stopped) return;
    if (lost.length === 0) {
      if (this.failures > 1) this.ports.logger.info('sharded subscriptions deliver again');
      this.failures = 0;
      return this.schedule(this.ports.intervalMs);
    }
    this.failures += 1;
    this.report(lost);
    try {
      await this.ports.renew(lost);
    } catch (error) {
      this.ports.logger.debug(`resubscribing failed, checking again: ${describeError(error)}`);
    }
    this.schedule(Math.min(RECHECK_MS * 2 ** (this.failures - 1), MAX_RECHECK_MS));
  }

  /** One line when channels go silent, one warning when renewing them did not help. */
  private report(lost: readonly string[]): void {
    const which = `sharded subscription${lost.length > 1 ? 's' : ''} to ${lost.join(', ')}`;
    if (this.failures === 1) {
      this.ports.logger.info(
        `${which} stopped delivering (a failover or slot move?); subscribing again`,
      );
    } else if (this.failures === 2) {
      this.ports.logger.warn(
        `${which} still not delivering after subscribing again; retrying at doubling waits up to ${MAX_RECHECK_MS / 1000} s (handoff messages to this server are lost meanwhile)`,
      );
    }
  }

  /**
   * `channel` when its probe did not come back in time; `undefined` when it did, or when the
   * probe could not be published (the cluster is out of reach: nothing to learn, nothing a new
   * connection would fix now).
   */
  private async probe(channel: string): Promise<string | undefined> {
    this.probes += 1;
    const payload = `${PROBE_MARK}${this.id}:${this.probes}`;
    // Listening before publishing: the echo may come back before SPUBLISH's own answer.
    const arrived = new Promise<boolean>((resolve) => {
      this.waiting.set(payload, () => resolve(true));
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.ports.publish(channel, payload);
      // The time allowed starts once Redis took the probe: a slow publish is not a lost echo.
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
      });
      return (await Promise.race([arrived, late])) ? undefined : channel;
    } catch (error) {
      this.ports.logger.debug(`probe of ${channel} not published: ${describeError(error)}`);
      return undefined;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(payload);
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.check(), ms);
    this.timer.unref?.();
  }
}
