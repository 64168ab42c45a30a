/**
 * How late this machine is during a wait that no `Cluster` records: a test of server processes
 * (their calls and timers run in other processes) runs a probe beside the wait, from the same
 * machine to the same backend, and takes the slack of its upper bound from what the probe saw
 * during that very wait, so a load that grows during the run moves the bound with it.
 */
import type { ServerPorts } from './backend.js';

/** The least slack a probe gives: the servers' own work between calls, which it cannot see. */
export const PROBE_FLOOR_MS = 60;

/** Samples of each measurement a probe takes at least, however short the wait: a p90 of ten. */
export const PROBE_MIN_SAMPLES = 10;

/** The pause between two samples of one measurement (ms): a probe adds little load. */
export const PROBE_SPACING_MS = 5;

/** The calls a wait waits on, one after another: what its slack is counted in. */
export interface Chain {
  readonly storeCalls: number;
  readonly presenceReads: number;
  readonly messages: number;
}

/**
 * The calls in the longest bounded wait of the scenarios, the crash takeover: ten load
 * attempts (a store read and a write each), each with a presence read, and four requests.
 */
export const CHAIN: Chain = Object.freeze({ storeCalls: 20, presenceReads: 10, messages: 4 });

/**
 * The calls of a hand-over: B's load (a read that finds A's lock), its request, A's release
 * save (one compare-and-set), A's reply, B's load again (a read and a compare-and-set), and a
 * presence read if B woke on its park first. The bench counts the same 4 store round trips.
 */
export const HOP_CHAIN: Chain = Object.freeze({ storeCalls: 4, presenceReads: 1, messages: 2 });

export interface ProbeOptions {
  /** The calls of the wait the slack is for (default `CHAIN`, a crash takeover). */
  readonly chain?: Chain;
  /**
   * The most slack (ms): below the shortest scaled timer that must not fit in the bound (a
   * beat for a takeover, a request repeat for a hand-over). Uncapped by default.
   */
  readonly capMs?: number;
  /** The least slack (ms), the servers' own work the probe cannot see (default 60). */
  readonly floorMs?: number;
}

export interface Spread {
  readonly p50: number;
  readonly p90: number;
  readonly max: number;
}

export interface ProbeFigures {
  /** The fewest samples of one measurement taken during the wait. */
  readonly samples: number;
  /** How much later than asked a 5 ms timer fired (ms). */
  readonly timerLateMs: Spread;
  /** How late a 5 ms timer fires on this machine before the wait (ms, the median of ten). */
  readonly idleLateMs: number;
  /**
   * How late the probe's timers, one after another, ran in all during the wait beyond the
   * idle lateness (ms): the time this process could not run, not Node's timer granularity. A
   * machine that stalls one process stalls the servers' too.
   */
  readonly timerLateTotalMs: number;
  /** One call of each port: a store read, a presence read, a message published until delivered (ms). */
  readonly storeMs: Spread;
  readonly presenceMs: Spread;
  readonly messageMs: Spread;
  /**
   * `min(capMs, max(floorMs, timerLateTotalMs + Σ chain count × p90))`: the timers' lateness
   * during the wait, and the wait's chain of calls (by default 20 store reads, 10 presence
   * reads and 4 messages), each at its p90, rounded up to a whole ms.
   */
  readonly slackMs: number;
}

/** A probe running beside a wait; `stop()` when the wait ends. */
export interface Probe {
  /** Stops sampling (after `PROBE_MIN_SAMPLES` of each) and returns the figures. */
  stop(): Promise<ProbeFigures>;
}

/** Nearest-rank percentile of `values` (sorted here). */
function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1]!;
}

function spread(values: readonly number[]): Spread {
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    p50: round(percentile(values, 0.5)),
    p90: round(percentile(values, 0.9)),
    max: round(Math.max(...values)),
  };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How much later than `delayMs` one timer fires (ms). */
async function timerLateness(delayMs: number): Promise<number> {
  const started = performance.now();
  await pause(delayMs);
  return Math.max(0, performance.now() - started - delayMs);
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/** The slack that a probe's figures give, by the formula on `ProbeFigures.slackMs`. */
export function slackFrom(
  figures: Pick<ProbeFigures, 'timerLateTotalMs' | 'storeMs' | 'presenceMs' | 'messageMs'>,
  options: ProbeOptions = {},
): number {
  const chain = options.chain ?? CHAIN;
  const total =
    figures.timerLateTotalMs +
    chain.storeCalls * figures.storeMs.p90 +
    chain.presenceReads * figures.presenceMs.p90 +
    chain.messages * figures.messageMs.p90;
  const slack = Math.max(options.floorMs ?? PROBE_FLOOR_MS, Math.ceil(total));
  return options.capMs === undefined ? slack : Math.min(options.capMs, slack);
}

/**
 * Starts sampling timer lateness and a round trip of each of `ports` (connections of the test
 * process to the backend the servers use), each measurement `PROBE_SPACING_MS` after the last.
 * A first call of each port opens its connection and is not a sample. Start it right before
 * the wait; `stop()` it right after.
 */
export async function probe(ports: ServerPorts, options: ProbeOptions = {}): Promise<Probe> {
  const id = `probe-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  let delivered: (() => void) | undefined;
  const topic = `CKHandoff_${id}`;
  const subscription = await ports.messenger.subscribe(topic, () => delivered?.());
  const message = async () => {
    const arrived = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    await ports.messenger.publish(topic, { T: 'probe' });
    await arrived;
  };
  const store = () => ports.store.get(id);
  const presence = () => ports.presence.get(id);
  await Promise.all([store(), presence(), message()]);
  const idle: number[] = [];
  for (let i = 0; i < PROBE_MIN_SAMPLES; i += 1) idle.push(await timerLateness(5));
  const idleLateMs = percentile(idle, 0.5);
  let stopped = false;
  let lateDuringMs = 0;
  const sampling = (once: () => Promise<number>, spacingMs = PROBE_SPACING_MS) =>
    (async () => {
      const samples: number[] = [];
      while (!stopped || samples.length < PROBE_MIN_SAMPLES) {
        samples.push(await once());
        if (spacingMs > 0) await pause(spacingMs);
      }
      return samples;
    })();
  // Timers one after another, no pause between: together they cover the whole wait.
  const lateness = async () => {
    const late = await timerLateness(5);
    if (!stopped) lateDuringMs += Math.max(0, late - idleLateMs);
    return late;
  };
  const loops = [
    sampling(lateness, 0),
    sampling(() => timed(store)),
    sampling(() => timed(presence)),
    sampling(() => timed(message)),
  ];
  return {
    async stop() {
      stopped = true;
      const [timer, storeMs, presenceMs, messageMs] = await Promise.all(loops);
      await subscription.unsubscribe();
      const figures = {
        idleLateMs: Math.round(idleLateMs * 100) / 100,
        timerLateMs: spread(timer!),
        timerLateTotalMs: Math.round(lateDuringMs * 100) / 100,
        storeMs: spread(storeMs!),
        presenceMs: spread(presenceMs!),
        messageMs: spread(messageMs!),
      };
      const samples = Math.min(...[timer, storeMs, presenceMs, messageMs].map((s) => s!.length));
      return { samples, ...figures, slackMs: slackFrom(figures, options) };
    },
  };
}

/** Runs `wait` with a probe beside it; returns what it returned and the probe's figures. */
export async function probed<T>(
  ports: ServerPorts,
  wait: () => Promise<T>,
  options: ProbeOptions = {},
): Promise<{ value: T; figures: ProbeFigures }> {
  const running = await probe(ports, options);
  try {
    const value = await wait();
    return { value, figures: await running.stop() };
  } catch (error) {
    await running.stop().catch(() => undefined);
    throw error;
  }
}

/** One line for a test log: the figures and the slack they give. */
export function describeProbe(name: string, figures: ProbeFigures): string {
  const show = (label: string, value: Spread) =>
    `${label} p50 ${value.p50} / p90 ${value.p90} / max ${value.max} ms`;
  return [
    `probe during ${name} (at least ${figures.samples} samples each):`,
    show('timer lateness', figures.timerLateMs),
    `timers late ${figures.timerLateTotalMs} ms in all beyond ${figures.idleLateMs} ms idle`,
    show('store read', figures.storeMs),
    show('presence read', figures.presenceMs),
    show('message', figures.messageMs),
    `=> slack ${figures.slackMs} ms`,
  ].join('; ');
}
