/**
 * How late this machine is, measured before real-time scenarios run: the slack their upper
 * bounds get comes from here, not from a constant, so the bounds stay as tight as the machine
 * allows and still say what the seed says.
 */
import type { ServerPorts } from './cluster-backend.js';

/** Samples of each measurement: a few dozen, so a p90 is not one outlier. */
export const CALIBRATION_SAMPLES = 40;

/**
 * The calls in the longest bounded wait of the scenarios, the crash takeover: ten load
 * attempts (a store read and a write each), each after a park timer and with a presence read,
 * and four requests. Each can be late by a timer's lateness or a slow round trip.
 */
export const CHAIN = Object.freeze({ timers: 10, storeCalls: 20, presenceReads: 10, messages: 4 });

/**
 * The least slack on real time (ms): one lost time slice or collector pause on a shared 2-core
 * machine, which a quiet calibration does not see.
 */
export const SLACK_FLOOR_MS = 60;

export interface Spread {
  readonly p50: number;
  readonly p90: number;
  readonly max: number;
}

export interface Calibration {
  readonly samples: number;
  /** How much later than asked a 5 ms timer fired (ms). */
  readonly timerLateMs: Spread;
  /** One call of each port: a store read, a presence read, a message published until delivered (ms). */
  readonly storeMs: Spread;
  readonly presenceMs: Spread;
  readonly messageMs: Spread;
  /**
   * `max(SLACK_FLOOR_MS, Σ CHAIN count × p90)`: 10 × timer lateness + 20 × store read + 10 ×
   * presence read + 4 × message, each at its p90, rounded up to a whole ms.
   */
  readonly slackMs: number;
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

async function sample(samples: number, once: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  await once(); // a first call may open a connection or warm a path: not a round trip
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return times;
}

function timerLateness(samples: number, delayMs: number): Promise<number[]> {
  return sample(samples, () => new Promise((resolve) => setTimeout(resolve, delayMs))).then(
    (times) => times.map((time) => Math.max(0, time - delayMs)),
  );
}

/** A message published on `ports` and delivered back to it, once per call. */
async function messageRoundTrip(ports: ServerPorts, samples: number): Promise<number[]> {
  const topic = `CKHandoff_calibration-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  let delivered: (() => void) | undefined;
  const subscription = await ports.messenger.subscribe(topic, () => delivered?.());
  try {
    return await sample(samples, async () => {
      const arrived = new Promise<void>((resolve) => {
        delivered = resolve;
      });
      await ports.messenger.publish(topic, { T: 'calibration' });
      await arrived;
    });
  } finally {
    await subscription.unsubscribe();
  }
}

/** The slack that `calibration`'s figures give, by the formula on `Calibration.slackMs`. */
export function slackFrom(
  figures: Pick<Calibration, 'timerLateMs' | 'storeMs' | 'presenceMs' | 'messageMs'>,
): number {
  const chain =
    CHAIN.timers * figures.timerLateMs.p90 +
    CHAIN.storeCalls * figures.storeMs.p90 +
    CHAIN.presenceReads * figures.presenceMs.p90 +
    CHAIN.messages * figures.messageMs.p90;
  return Math.max(SLACK_FLOOR_MS, Math.ceil(chain));
}

/**
 * Measures timer lateness and the round trip of each of `ports` (one server's connections to
 * the backend), one sample after another, with nothing else running.
 */
export async function calibrate(
  ports: ServerPorts,
  samples = CALIBRATION_SAMPLES,
): Promise<Calibration> {
  const key = `calibration-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const timerLateMs = spread(await timerLateness(samples, 5));
  const storeMs = spread(await sample(samples, () => ports.store.get(key).then(() => undefined)));
  const presenceMs = spread(
    await sample(samples, () => ports.presence.get(key).then(() => undefined)),
  );
  const messageMs = spread(await messageRoundTrip(ports, samples));
  const figures = { timerLateMs, storeMs, presenceMs, messageMs };
  return { samples, ...figures, slackMs: slackFrom(figures) };
}

/** One line for a test log: the figures and the slack they give. */
export function describeCalibration(name: string, calibration: Calibration): string {
  const show = (label: string, value: Spread) =>
    `${label} p50 ${value.p50} / p90 ${value.p90} / max ${value.max} ms`;
  return [
    `calibration on ${name} (${calibration.samples} samples each):`,
    show('timer lateness', calibration.timerLateMs),
    show('store read', calibration.storeMs),
    show('presence read', calibration.presenceMs),
    show('message', calibration.messageMs),
    `=> slack ${calibration.slackMs} ms`,
  ].join('; ');
}
