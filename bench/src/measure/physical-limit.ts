/**
 * The physical limit of a live hand-over on one backend combination, measured in the same run:
 * the round trips no protocol can skip. B's request travels to A (a message), A writes the
 * release (a conditional write), A's reply travels to B (a message), B writes its lock (a
 * conditional write). Each leg is timed alone, one at a time; a limit sample is the sum of one
 * sample of each of the four legs.
 */
import type { Combo, RunningBackends } from '../backends.js';
import type { BenchConfig } from '../config.js';
import { sumOfLegs, timed } from '../stats.js';
import { type ConditionalWriter, writerOn } from './conditional-writes.js';
import { busOf, storeOf } from './limit-backends.js';
import { type MessengerPair, messengerPair } from './messenger-pairs.js';

const DELIVERY_TIMEOUT_MS = 5_000;
const WARM_UP = 20;

export interface LimitResult {
  /** Samples of the whole limit (ms). */
  readonly samples: number[];
  /** Publish to delivery on the other connection (ms). */
  readonly message: number[];
  /** One conditional write (ms). */
  readonly write: number[];
}

export async function measureLimit(
  combo: Combo,
  backends: RunningBackends,
  config: BenchConfig,
): Promise<LimitResult> {
  const tag = `bench-limit-${combo.id}-${process.pid}-${Date.now()}`;
  const pair = messengerPair(busOf(combo, backends));
  const writer = await writerOn(storeOf(combo, backends), tag);
  try {
    const message = await messageLegs(pair, tag, config.limitSamples * 2);
    const write = await writeLegs(writer, config.limitSamples * 2, config.storeWarmUpWrites);
    const pairs = (legs: number[]) => [
      legs.filter((_, i) => i % 2 === 0),
      legs.filter((_, i) => i % 2 === 1),
    ];
    return { samples: sumOfLegs([...pairs(message), ...pairs(write)]), message, write };
  } finally {
    writer.close();
    await pair.close();
  }
}

async function messageLegs(pair: MessengerPair, topic: string, count: number): Promise<number[]> {
  let arrived: ((n: number) => void) | undefined;
  const subscription = await pair.receiver.subscribe(topic, (message) => {
    arrived?.((message as { n: number }).n);
  });
  try {
    const samples: number[] = [];
    for (let n = 0; n < WARM_UP + count; n++) {
      const took = await oneMessage(pair, topic, n, (resolve) => {
        arrived = (got) => got === n && resolve();
      });
      if (n >= WARM_UP) samples.push(took);
    }
    return samples;
  } finally {
    await subscription.unsubscribe();
  }
}

/** Publishes message `n` and resolves with the time until the receiver had it. */
function oneMessage(
  pair: MessengerPair,
  topic: string,
  n: number,
  listen: (resolve: () => void) => void,
): Promise<number> {
  return timed(
    () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`message ${n} on ${topic} not delivered`)),
          DELIVERY_TIMEOUT_MS,
        );
        listen(() => {
          clearTimeout(timer);
          resolve();
        });
        pair.sender
          .publish(topic, { T: 'Q', D: 'PlayerData', K: 'bench', R: 'bench-b', n })
          .catch(reject);
      }),
  );
}

async function writeLegs(
  writer: ConditionalWriter,
  count: number,
  warmUp: number,
): Promise<number[]> {
  for (let n = 0; n < warmUp; n++) await writer.write();
  const samples: number[] = [];
  for (let n = 0; n < count; n++) samples.push(await timed(() => writer.write()));
  return samples;
}
