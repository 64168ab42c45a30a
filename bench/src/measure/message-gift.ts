/**
 * A gift to an online player, between processes (all-Redis): this process calls
 * `driver.send`, the holder process (message-holder-main.ts, started by the caller) holds the
 * profile with an `onMessage` and applies it. A sample runs from the send's start to the holder's
 * `message.applied` (its pass's compare-and-set known committed), on the holder's wall clock
 * less its offset from this process's (measured once per holder: wall-clock.ts).
 *
 * The floor, measured the same way between the same two kinds of process on the same Redis:
 * one inbox write (the Redis adapter's own `update` of an inbox key, as a send makes it), one
 * publish on the bus to the holder, one compare-and-set of the profile record, by hand. What
 * DataDriver adds on top: the send's read of the profile (to find its holder), the holder's
 * read of the inbox, and their code. Samples of the two alternate (the order swapping each
 * time), so a change of load on the machine hits both alike.
 */
import { redisPorts, startServer } from './in-process-server.js';
import { type Applied, MessageHolder } from './message-holder.js';
import { messengerOn } from './messenger-pairs.js';
import { wallNow } from './wall-clock.js';

export interface GiftResult {
  /** Send start to applied on the holder (ms). */
  readonly driver: number[];
  /** Send start to `send` resolved (the message durable in the inbox), same samples (ms). */
  readonly driverSend: number[];
  /** Inbox write, publish, the holder's compare-and-set (ms). */
  readonly floor: number[];
  /** Passes that applied more than the one message sent (none expected: one at a time). */
  readonly batchedPasses: number;
  /** Each holder's clock against this process's (ms), and the round trip that measured it. */
  readonly clocks: {
    readonly holder: { readonly offsetMs: number; readonly roundTripMs: number };
    readonly floor: { readonly offsetMs: number; readonly roundTripMs: number };
  };
}

const APPLIED_TIMEOUT_MS = 10_000;

export async function measureGift(
  redisUrl: string,
  holder: MessageHolder,
  samples: number,
  warmUp: number,
): Promise<GiftResult> {
  const tag = `bench-gift-${process.pid}-${Date.now()}`;
  const holderKey = holder.args.key;
  const topic = `${tag}-floor`;
  const floorHolder = await MessageHolder.start({
    mode: 'floor',
    redisUrl,
    jobId: `${tag}-floor`,
    key: `${tag}-floor-profile`,
    topic,
  });
  const senderPorts = redisPorts(redisUrl);
  const sender = startServer({ jobId: `${tag}-sender`, ports: senderPorts });
  const floorPorts = redisPorts(redisUrl);
  const floorBus = messengerOn({ kind: 'redis', url: redisUrl });
  const floorInbox = `${tag}-floor-inbox`;
  const driver = sender.drivers[0]!;
  const clocks = { holder: await holder.clockOffset(), floor: await floorHolder.clockOffset() };
  const result: GiftResult = { driver: [], driverSend: [], floor: [], batchedPasses: 0, clocks };
  let batched = 0;

  const driverSample = async (n: number) => {
    const id = `gift-${n}`;
    const applied = holder.next((line) => line.ids?.includes(id) === true, APPLIED_TIMEOUT_MS);
    const started = wallNow();
    await driver.send(holderKey, { coins: 1 }, { id });
    const sent = wallNow();
    const line: Applied = await applied;
    if ((line.ids?.length ?? 0) > 1) batched++;
    return { applied: line.at - clocks.holder.offsetMs - started, sent: sent - started };
  };
  const floorSample = async (n: number) => {
    const applied = floorHolder.next((line) => line.n === n, APPLIED_TIMEOUT_MS);
    const started = wallNow();
    // The adapter's update of the inbox key: one message, as a send appends it.
    await floorPorts.store.update(floorInbox, () => ({
      messages: [{ id: `floor-${n}`, body: { coins: 1 }, at: Date.now() }],
    }));
    await floorBus.messenger.publish(topic, { T: 'M', D: 'PlayerData', K: holderKey, n });
    return (await applied).at - clocks.floor.offsetMs - started;
  };

  try {
    for (let n = 0; n < warmUp + samples; n++) {
      const record = n >= warmUp;
      const [gift, floor] =
        n % 2 === 0
          ? [await driverSample(n), await floorSample(n)]
          : await floorSample(n).then(async (floor) => [await driverSample(n), floor] as const);
      if (!record) continue;
      result.driver.push(gift.applied);
      result.driverSend.push(gift.sent);
      result.floor.push(floor);
    }
    return { ...result, batchedPasses: batched };
  } finally {
    await floorHolder.stop();
    await sender.close();
    await senderPorts.close();
    await floorBus.close();
    await floorPorts.close();
  }
}
