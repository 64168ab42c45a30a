/**
 * Sends per second to one popular profile (all-Redis): `senders` concurrent loops of
 * `driver.send` to the one key the holder process (started by the caller) holds, spread over
 * four sender servers (a connection each, as webhook
 * handlers on several processes would be), for `seconds`, every send an inbox compare-and-set
 * on the same record. The holder process holds the profile with an `onMessage` and applies
 * them as they come; the run ends once every message sent is counted applied there (by id, in
 * its `message.applied` events). A send refused with `Data.InboxFull` (the holder behind by
 * 1,000 messages) waits 10 ms and is sent again with the same id, and one refused with
 * `Data.Conflict` (the store's compare-and-set lost to other senders `maxAttempts` times) is
 * sent again at once, as the purchase recipe retries; so is one refused with
 * `Data.DeliveryUncertain` (its write ran after the receipt window, at this rate well under a
 * second of sends, forgot messages sent after it): safe here, since every earlier call with
 * that id was refused with nothing written. All three are counted.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { redisPorts, startServer } from './in-process-server.js';
import type { MessageHolder } from './message-holder.js';
import { type Calls, per, RedisCommandCounter } from './round-trips.js';
import { CLIENT_COMMANDS } from './throughput.js';

export interface PopularResult {
  readonly senders: number;
  readonly sent: number;
  /** From the first send's start to the last send resolved (s). */
  readonly sendSeconds: number;
  /** From the last send resolved to the last message applied on the holder (ms). */
  readonly drainMs: number;
  /** Distinct ids the holder reported applied (all of `sent`, or the run fails). */
  readonly applied: number;
  /** The holder's passes (each one compare-and-set of the profile for all it found). */
  readonly passes: number;
  readonly inboxFullRetries: number;
  /** Sends that rejected with `Data.Conflict` (the store's retries ran out) and were sent again. */
  readonly conflictRetries: number;
  /** Sends that rejected with `Data.DeliveryUncertain` and were sent again. */
  readonly uncertainRetries: number;
  /** Commands per send at Redis, every client's (the holder's included): retries show here. */
  readonly callsPerSend: Calls;
}

const SENDER_SERVERS = 4;
const DRAIN_TIMEOUT_MS = 30_000;

export async function measurePopular(
  redisUrl: string,
  holder: MessageHolder,
  senders: number,
  seconds: number,
): Promise<PopularResult> {
  const tag = `bench-popular-${process.pid}-${Date.now()}`;
  const key = holder.args.key;
  const servers = Array.from({ length: SENDER_SERVERS }, (_, index) => {
    const ports = redisPorts(redisUrl);
    return { ports, server: startServer({ jobId: `${tag}-sender-${index}`, ports }) };
  });
  const applied = new Set<string>();
  let passes = 0;
  let lastAppliedAt = 0;
  let allApplied: (() => void) | undefined;
  let sent = 0;
  let sending = true;
  holder.onApplied((line) => {
    passes++;
    for (const id of line.ids ?? []) applied.add(id);
    lastAppliedAt = performance.now();
    if (!sending && applied.size >= sent) allApplied?.();
  });
  let retries = 0;
  let conflicts = 0;
  let uncertain = 0;
  const counter = RedisCommandCounter.open(redisUrl);
  try {
    const before = await counter.snapshot();
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const loop = async (sender: number) => {
      const driver = servers[sender % SENDER_SERVERS]!.server.drivers[0]!;
      for (let n = 0; performance.now() < deadline; n++) {
        const id = `${tag}-${sender}-${n}`;
        for (;;) {
          try {
            await driver.send(key, { coins: 1 }, { id });
            break;
          } catch (error) {
            const code = error instanceof DataDriverError ? error.code : undefined;
            if (code === ErrorCode.Conflict) {
              // The store's compare-and-set retries ran out: the recipe's retry, same id.
              conflicts++;
              continue;
            }
            if (code === ErrorCode.DeliveryUncertain) {
              // Nothing of this id was written by any of its calls: sent again, a new time.
              uncertain++;
              continue;
            }
            if (code !== ErrorCode.InboxFull) throw error;
            retries++;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }
        sent++;
      }
    };
    await Promise.all(Array.from({ length: senders }, (_, index) => loop(index)));
    const sentAt = performance.now();
    const drained = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`${applied.size} of ${sent} messages applied after ${DRAIN_TIMEOUT_MS} ms`),
          ),
        DRAIN_TIMEOUT_MS,
      );
      allApplied = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    sending = false;
    if (applied.size >= sent) allApplied?.();
    await drained;
    const calls = await counter.since(before);
    return {
      callsPerSend: per(calls, sent, CLIENT_COMMANDS),
      senders,
      sent,
      sendSeconds: (sentAt - started) / 1000,
      drainMs: Math.max(0, lastAppliedAt - sentAt),
      applied: applied.size,
      passes,
      inboxFullRetries: retries,
      conflictRetries: conflicts,
      uncertainRetries: uncertain,
    };
  } finally {
    holder.onApplied(undefined);
    counter.close();
    for (const { server, ports } of servers) {
      await server.close();
      await ports.close();
    }
  }
}
