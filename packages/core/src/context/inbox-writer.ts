/**
 * Group commit of one driver's sends per profile: while an inbox write of key K is in flight
 * from this driver, later sends to K wait here; when it settles, all of them go out in one
 * write (one `update` of K's inbox), in the order they came. A send to a key with no write in
 * flight goes out at once, alone: no timer, no wait added to an uncontended send. Sends of one
 * process to one popular profile then take one compare-and-set per round trip instead of one
 * each, all fighting over the same key.
 *
 * No cap on a batch: its record is bounded by the inbox's own limits whatever the count (the
 * rest are refused `Data.InboxFull` in the batch as they would be one by one), each message
 * costs the transform what it costs a lone send, and without a cap a waiting send waits for at
 * most two writes: the one in flight, then its own.
 */
import type { BatchedSend, InboxMessage } from '../rules/messages/index.js';

/** One batch's write: a result per message, in their order, or the store's typed error. */
export type InboxBatchWrite = (
  messages: readonly InboxMessage[],
) => Promise<readonly BatchedSend[]>;

interface Waiting {
  readonly message: InboxMessage;
  readonly write: InboxBatchWrite;
  readonly resolve: (result: BatchedSend) => void;
  readonly reject: (error: unknown) => void;
}

export class InboxWriter {
  /** Per key with a write in flight: the sends waiting for the next one (maybe none yet). */
  private readonly waiting = new Map<string, Waiting[]>();

  /**
   * `message` appended to `key`'s inbox, alone or with the sends that overlap it, by `write`
   * (the first waiting send's writes the batch: every caller of one driver passes the same).
   * Settles with its own result, or with the batch's error when the write failed: each message
   * of that batch may or may not have been written, and a resend with its id tells which.
   */
  append(key: string, message: InboxMessage, write: InboxBatchWrite): Promise<BatchedSend> {
    return new Promise((resolve, reject) => {
      const entry: Waiting = { message, write, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue === undefined) this.start(key, [entry]);
      else queue.push(entry);
    });
  }

  private start(key: string, batch: readonly Waiting[]): void {
    this.waiting.set(key, []);
    const written = (async () =>
      (batch[0] as Waiting).write(batch.map((entry) => entry.message)))();
    void written
      .then(
        (results) => {
          for (const [index, entry] of batch.entries()) {
            entry.resolve(results[index] as BatchedSend);
          }
        },
        (error: unknown) => {
          for (const entry of batch) entry.reject(error);
        },
      )
      .finally(() => {
        const next = this.waiting.get(key) ?? [];
        if (next.length === 0) this.waiting.delete(key);
        else this.start(key, next);
      });
  }
}
