/**
 * Several game servers in one process, sharing one backend: each with its own jobId, host,
 * driver, handoff and fault-injecting connections. Scenarios drive players through them and
 * assert what the lock handoff rules promise.
 */
import {
  DataDriver,
  type DataDriverEvent,
  type DataDriverOptions,
  Handoff,
  type Logger,
  type Presence,
} from '@datadriver/core';
import { defaultLockWaitSeconds, type ProfileRecord } from '@datadriver/core/rules';
import { FaultyMessenger, FaultyPresence, FaultyStore, MemoryHost } from '@datadriver/core/testing';
import type { ClusterBackend } from './backend.js';
import { type CriticalPath, criticalPath, pathSlack, type Wait } from './critical-path.js';
import { HaltingScheduler } from './halt.js';
import { type Span, TimeLedger, type Unscaled } from './ledger.js';
import { LoopLag } from './loop-lag.js';
import { type LogLine, type PlayerData, type ServerOptions, TestServer } from './server.js';
import { skewed, stretched } from './server-clock.js';
import { type ClusterTime, scaledTimings } from './time.js';
import { timedPorts, timedScheduler, timedTime } from './timed-ports.js';
import { type WaitSlack, waitSlack } from './wait-slack.js';

/** The fleet key of the servers that hand locks over (signing is what lets them). */
const HAND_OVER_SIGNING = { key: 'the cluster hand-over key, 32 b', acceptUnsigned: true } as const;

let clusters = 0;

export interface ClusterOptions {
  /**
   * True (the default): the cluster keeps every server's events (`events`) and, on the virtual
   * clock too, a ledger of every call, flight and timer (`ledger`), which scenarios' bounds and
   * critical paths read. False for a caller that judges by its own recorders (the simulator):
   * nothing is kept, and every call and timer costs less.
   */
  readonly history?: boolean;
}

const INFLIGHT = { inFlight: true } as const;

export class Cluster {
  /** Every server's events; `order` places each among the ledger's entries (finer than ms). */
  readonly events: Array<DataDriverEvent & { readonly server: string; readonly order: number }> =
    [];
  readonly log: LogLine[] = [];
  readonly servers = new Map<string, TestServer>();
  /** Prefix of jobIds and driver names: runs on one real backend never collide. */
  readonly namespace: string;
  readonly driverName: string;
  /**
   * On real time: every round trip, message flight and timer of this cluster's servers, which
   * the slack of a wait's upper bound is taken from (see `slackFor`).
   */
  readonly ledger: TimeLedger;
  /** The backend's time; on real time its passes go in the ledger (see `timedTime`). */
  readonly time: ClusterTime;
  /** On real time: when this process's event loop could not run (see `LoopLag`). */
  readonly loopLag: LoopLag | undefined;

  /** False: no ledger of calls and timers, no list of events (`ClusterOptions.history`). */
  readonly #history: boolean;

  /** `title` names this cluster's waits in the log (concurrent tests share one `expect` state). */
  constructor(
    readonly backend: ClusterBackend,
    readonly title?: string,
    options: ClusterOptions = {},
  ) {
    this.#history = options.history ?? true;
    clusters += 1;
    this.namespace = `t${process.pid}x${clusters}x${Math.random().toString(36).slice(2, 8)}`;
    this.driverName = `PlayerData-${this.namespace}`;
    this.ledger = new TimeLedger(() => backend.time.now());
    this.time = backend.time.exact ? backend.time : timedTime(backend.time, this.ledger);
    // Real time is `Date.now()`, the shared sampler's clock.
    this.loopLag = backend.time.exact ? undefined : LoopLag.acquire();
  }

  /** What the servers spent during `span` that the scale does not shrink (see `TimeLedger`). */
  unscaledIn(span: Span): Unscaled {
    return this.ledger.unscaledIn(span);
  }

  /** The calls, flights and timers `wait` waited on (see `criticalPath`). */
  pathOf(wait: Wait): CriticalPath {
    return criticalPath(this.ledger, wait);
  }

  /**
   * Added to an upper bound on real time: the larger of what the wait's own path and the
   * holder's release chain to the reply it acted on spent unscaled outside `fixed`, less the
   * model's time for those steps, scaled, and the event-loop lag measured in their gaps (see
   * `waitSlack`); 0 on the exact virtual clock.
   */
  slackFor(wait: Wait, fixed?: Span): WaitSlack {
    if (this.time.exact) {
      const path = { steps: [], ownWork: [], end: wait.to };
      return { ...pathSlack(path, this.backend.scale, fixed), path, viaReply: false, slackMs: 0 };
    }
    return waitSlack(this.ledger, wait, this.backend.scale, fixed, this.loopLag?.during(wait));
  }

  /** The rules' `seconds` (unscaled) in this backend's milliseconds, scaled. */
  ms(seconds: number): number {
    return seconds * 1000 * this.backend.scale;
  }

  async server(label: string, options: ServerOptions = {}): Promise<TestServer> {
    if (options.lockWaitSeconds === 'unset' && this.backend.scale !== 1) {
      throw new Error(
        "lockWaitSeconds: 'unset' needs scale 1: the driver's default is real seconds",
      );
    }
    const jobId = `${this.namespace}-${label}`;
    const connected = await this.backend.connect(jobId);
    const real = !this.time.exact;
    const ports = real ? timedPorts(connected, this.ledger, label) : connected;
    const scheduler = this.time.scheduler;
    const timed = this.#history ? timedScheduler(scheduler, this.ledger, label) : scheduler;
    // A crash stops every timer of the server's driver and handoff (see `HaltingScheduler`).
    const serverClock = new HaltingScheduler(
      skewed(
        options.timerDelay ? stretched(timed, options.timerDelay) : timed,
        this.ms(options.clockSkewSeconds ?? 0),
      ),
    );
    const latency = this.backend.latency;
    const store = new FaultyStore(ports.store, { scheduler, latencyMs: latency?.storeMs ?? 0 });
    const messenger = new FaultyMessenger(ports.messenger, {
      scheduler,
      latencyMs: latency?.messageMs ?? 0,
    });
    const presence = new FaultyPresence(ports.presence, {
      scheduler,
      latencyMs: latency?.presenceMs ?? 0,
    });
    options.prepare?.({ store, messenger, presence });
    // On the virtual clock the model's latencies are the fault layer's: timed outside it, the
    // ledger holds each call's model time, and a scenario checks each park exactly.
    const used =
      real || !this.#history
        ? { store, messenger, presence }
        : timedPorts({ store, messenger, presence }, this.ledger, label);
    const logger = this.logger(jobId);
    const handoff =
      options.handoff === false
        ? undefined
        : new Handoff({
            jobId,
            messenger: used.messenger,
            presence: used.presence,
            scheduler: serverClock,
            logger,
            timings: scaledTimings(this.backend.scale),
            // A hand-over is asked and honoured only under signing; unsigned servers of the
            // same cluster are still heard.
            ...(options.handOverLocks ? { signing: HAND_OVER_SIGNING } : {}),
          });
    const driver = new DataDriver<PlayerData>({
      ...this.driverOptions(options, used.presence),
      name: this.driverName,
      defaults: { coins: 0 },
      ...used,
      scheduler: serverClock,
      logger,
      jobId,
      handoff: handoff ?? false,
      ...(options.createId ? { createId: options.createId } : {}),
      ...(options.onMessage ? { onMessage: options.onMessage } : {}),
      ...(options.handOverLocks ? { handOverLocks: true } : {}),
    });
    const record = (event: DataDriverEvent) => {
      // Without history, only what `server` itself waits on below.
      if (!this.#history && event.type !== 'handoff.subscribe-failed') return;
      this.events.push({ ...event, server: label, order: this.ledger.mark() });
    };
    driver.on(record);
    handoff?.on(record);
    const host = new MemoryHost(jobId);
    driver.attach(host);
    const server = new TestServer(label, jobId, host, driver, store, messenger, presence, handoff);
    server.onCrash = () => {
      serverClock.halt();
      this.ledger.silence(label);
    };
    this.servers.set(label, server);
    await this.time.pass(0);
    // A bus may drop what is published before a subscription exists (Pub/Sub does): a server
    // joins the scenario once its subscription is made, or has failed.
    if (handoff) {
      const settledSubscribe = () =>
        handoff.subscribed ||
        this.events.some((e) => e.server === label && e.type === 'handoff.subscribe-failed');
      await this.until(settledSubscribe, 10_000, `the subscription of ${label}`);
    }
    return server;
  }

  /** The profile record as stored now, read past every server. */
  async record(key: string): Promise<ProfileRecord | undefined> {
    return (await this.backend.read(`${this.driverName}/${key}`)) as ProfileRecord | undefined;
  }

  /** The label of the server whose lock is on `key`, if any. */
  async holder(key: string): Promise<string | undefined> {
    const lock = (await this.record(key))?.meta.lock;
    if (!lock) return undefined;
    for (const [label, server] of this.servers) if (server.jobId === lock.jobId) return label;
    return lock.jobId;
  }

  /** Lets time pass until `condition` holds; fails after `limitMs` (ms of this backend). */
  async until(
    condition: () => boolean | Promise<boolean>,
    limitMs: number,
    what = 'condition',
  ): Promise<number> {
    const from = this.time.now();
    while (!(await condition())) {
      const to = this.time.now();
      // On real time the limit grows by what the wait so far spent unscaled.
      if (to - from > limitMs) {
        // A message still in flight counts too: it may be what the condition waits for.
        const slack = this.time.exact ? 0 : this.untilSlack({ from, to });
        if (to - from > limitMs + slack)
          throw new Error(`${what} did not happen within ${limitMs} ms + ${slack} ms of slack`);
      }
      await this.time.step();
    }
    return this.time.now() - from;
  }

  /**
   * A limit's slack: all the cluster's unscaled time in `span`, and at least 60 ms. A limit
   * keeps a scenario from hanging and bounds no promise, so it may be generous.
   */
  private untilSlack(span: Span): number {
    return Math.max(60, Math.ceil(this.ledger.unscaledIn(span, INFLIGHT).totalMs));
  }

  /** The first event of `type` on server `label` after index `from`. */
  find<T extends DataDriverEvent['type']>(
    label: string,
    type: T,
    key?: string,
  ): (Extract<DataDriverEvent, { type: T }> & { server: string }) | undefined {
    return this.events.find(
      (event) =>
        event.server === label &&
        event.type === type &&
        (key === undefined || ('key' in event && event.key === key)),
    ) as (Extract<DataDriverEvent, { type: T }> & { server: string }) | undefined;
  }

  warnings(label?: string): string[] {
    const jobId = label === undefined ? undefined : this.servers.get(label)?.jobId;
    return this.log
      .filter((line) => line.level === 'warn' && (jobId === undefined || line.jobId === jobId))
      .map((line) => line.message);
  }

  async close(): Promise<void> {
    if (this.loopLag) LoopLag.release(this.loopLag);
    for (const server of this.servers.values()) {
      await this.time.until(server.stop()).catch(() => undefined);
    }
    await this.backend.close();
  }

  private driverOptions(
    options: ServerOptions,
    presence: Presence,
  ): Partial<DataDriverOptions<PlayerData>> {
    const scaled = (value: number | undefined) =>
      value === undefined ? undefined : value * this.backend.scale;
    const lockWait = defaultLockWaitSeconds(presence, Handoff.PRESENCE_TTL_SECONDS);
    const seconds = {
      lockWaitSeconds:
        options.lockWaitSeconds === 'unset'
          ? undefined
          : scaled(options.lockWaitSeconds ?? lockWait),
      localHandoffSeconds: scaled(options.localHandoffSeconds),
      lockTtlSeconds: scaled(options.lockTtlSeconds ?? 180),
      lockSkewSeconds: scaled(options.lockSkewSeconds ?? 60),
      autosaveSeconds: scaled(options.autosaveSeconds ?? 30),
      timings: scaledTimings(this.backend.scale),
    };
    return Object.fromEntries(Object.entries(seconds).filter(([, value]) => value !== undefined));
  }

  private logger(jobId: string): Logger {
    const at = (level: keyof Logger) => (message: string) =>
      void this.log.push({ jobId, level, message });
    return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  }
}
