/**
 * Subscribing a messenger's own connection again after each reconnect.
 *
 * ioredis can do it (`autoResubscribe`), but it sends the SUBSCRIBE from its ready handler and
 * nothing handles the reply: when the connection drops again before Redis answers and the next
 * reconnect fails too, the command rejects (`MaxRetriesPerRequestError` under
 * `maxRetriesPerRequest: 1`) and the process dies of an unhandled rejection. So the messenger's
 * connection is made with `autoResubscribe: false`, and this subscribes it again on each
 * 'ready' instead: a failure is logged (a warning once per outage) and retried, on the next
 * 'ready' if the connection dropped, or after `RESUBSCRIBE_RETRY_MS` if it stayed up.
 */
import { describeError, type Logger } from '@datadriver/core/ports';
import type { Redis } from 'ioredis';

/** How long a failed re-subscribe on a connection that stayed up waits before the next try (ms). */
export const RESUBSCRIBE_RETRY_MS = 1_000;

export interface ResubscribeOptions {
  /** The messenger's own connection (standalone), made with `autoResubscribe: false`. */
  readonly connection: Redis;
  /** The channels subscribed now. */
  readonly channels: () => readonly string[];
  /** Subscribes `connection` to one channel (SUBSCRIBE or SSUBSCRIBE). */
  readonly subscribe: (channel: string) => Promise<unknown>;
  readonly logger: Logger;
}

export class Resubscriber {
  /** The first 'ready' is the connection's first: the offline queue sends its SUBSCRIBEs. */
  private connectedBefore = false;
  /** True from a failure's warning until a re-subscribe succeeds: one warning per outage. */
  private warned = false;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Counts attempts, so a failure that a newer attempt overtook neither warns nor retries. */
  private attempts = 0;
  private readonly onReady = () => {
    if (!this.connectedBefore) {
      this.connectedBefore = true;
      return;
    }
    void this.resubscribe();
  };

  constructor(private readonly options: ResubscribeOptions) {
    options.connection.on('ready', this.onReady);
  }

  /** Stops listening and retrying (the connection is being closed). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.options.connection.off('ready', this.onReady);
  }

  private async resubscribe(): Promise<void> {
    clearTimeout(this.retry);
    const attempt = ++this.attempts;
    const { connection, logger } = this.options;
    const channels = this.options.channels();
    if (this.stopped || channels.length === 0) return;
    try {
      await Promise.all(channels.map((channel) => this.options.subscribe(channel)));
    } catch (error) {
      if (this.stopped || attempt !== this.attempts) return;
      const next =
        connection.status === 'ready' ? `in ${RESUBSCRIBE_RETRY_MS} ms` : 'once it reconnects';
      const line = `redis subscriber: subscribing to ${channels.length} channel(s) again after a reconnect failed (${describeError(error)}); retrying ${next}, and nothing published to them meanwhile is delivered`;
      if (this.warned) logger.debug(line);
      else logger.warn(line);
      this.warned = true;
      // A connection that dropped again retries on its next 'ready'; one still up needs a timer.
      if (connection.status === 'ready') {
        this.retry = setTimeout(() => void this.resubscribe(), RESUBSCRIBE_RETRY_MS);
        this.retry.unref();
      }
      return;
    }
    if (this.warned && !this.stopped && attempt === this.attempts) {
      this.warned = false;
      logger.info(`redis subscriber: subscribed to ${channels.length} channel(s) again`);
    }
  }
}
