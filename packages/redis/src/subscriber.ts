/**
 * Where a messenger's subscriptions live, and the commands that make and end them.
 *
 * On a standalone client: a connection of its own (`duplicate()`), because a connection in
 * subscriber mode can run nothing else; a `Resubscriber` subscribes it again after every
 * reconnect (not ioredis's `autoResubscribe`: see resubscribe.ts), and the offline queue holds
 * SUBSCRIBE until it is ready, whatever the user's client does.
 *
 * On a Cluster client: the client itself. ioredis already subscribes on connections of its own
 * inside it (one node for classic pub/sub, each master for sharded), and one client keeps one
 * slot map for commands and subscriptions alike, which any MOVED a command meets refreshes. A
 * duplicate would only subscribe, never meet a MOVED, and keep a slot map a failover left stale.
 */
import { describeError, type Logger } from '@datadriver/core/ports';
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './client.js';
import { within } from './deadline.js';
import { Resubscriber } from './resubscribe.js';

export interface SubscriberOptions {
  readonly client: RedisClient;
  readonly sharded: boolean;
  readonly deadlineMs: number | undefined;
  readonly logger: Logger;
  /** The channels subscribed now, to subscribe again after a reconnect. */
  readonly channels: () => readonly string[];
  /** Each message on any channel of the connection. */
  readonly onMessage: (channel: string, payload: string) => void;
  /** A sign that a subscription may be lost (a Cluster node reported trouble or left). */
  readonly onTrouble: () => void;
}

export class Subscriber {
  private connection: RedisClient | undefined;
  private readonly detach: Array<() => void> = [];

  constructor(private readonly options: SubscriberOptions) {}

  /** Subscribes to `channel`, within the deadline. */
  async add(channel: string): Promise<void> {
    await this.subscribe(this.open(), channel);
  }

  private async subscribe(connection: RedisClient, channel: string): Promise<void> {
    const { sharded, deadlineMs } = this.options;
    // Kept queued past the deadline: the Cluster client subscribes once the cluster is back.
    await within(
      deadlineMs,
      sharded ? connection.ssubscribe(channel) : connection.subscribe(channel),
      'keep',
    );
  }

  /** Unsubscribes from `channel`; a failure costs only its traffic, so it is logged. */
  async remove(channel: string): Promise<void> {
    if (this.connection) await this.unsubscribe(this.connection, channel);
  }

  private async unsubscribe(connection: RedisClient, channel: string): Promise<void> {
    const { sharded, deadlineMs, logger } = this.options;
    try {
      const ended = sharded ? connection.sunsubscribe(channel) : connection.unsubscribe(channel);
      await within(deadlineMs, ended, 'keep');
    } catch (error) {
      // Nothing is delivered to a channel without handlers, so a failed UNSUBSCRIBE costs
      // only its traffic until the connection next drops.
      logger.debug(`redis unsubscribe of ${channel} failed: ${describeError(error)}`);
    }
  }

  /**
   * Subscribes to `channels` again. A Cluster client reads its slot map afresh first, so each
   * SSUBSCRIBE goes to the master that serves its slot now; a standalone connection is made anew.
   */
  async renew(channels: readonly string[]): Promise<void> {
    const { client, deadlineMs } = this.options;
    if (client.isCluster) {
      const refreshed = new Promise<void>((resolve, reject) =>
        (client as Cluster).refreshSlotsCache((error) => (error ? reject(error) : resolve())),
      );
      await within(deadlineMs, refreshed);
    } else {
      this.end();
    }
    await Promise.all(channels.map((channel) => this.add(channel)));
  }

  /**
   * Unsubscribes from `channel`, the last one: a connection of its own closes (which ends it);
   * on a Cluster the listeners stay, so a subscription made meanwhile keeps delivering.
   */
  async removeLast(channel: string): Promise<void> {
    if (this.options.client.isCluster) return this.remove(channel);
    this.end();
  }

  /** Ends the subscriptions to `channels` and stops listening; the user's client stays open. */
  async close(channels: readonly string[]): Promise<void> {
    if (!this.options.client.isCluster) return this.end();
    this.end();
    await Promise.all(channels.map((channel) => this.unsubscribe(this.options.client, channel)));
  }

  private open(): RedisClient {
    if (this.connection) return this.connection;
    const { client, sharded, logger, onMessage, onTrouble, channels } = this.options;
    const connection = client.isCluster
      ? client
      : (client as Redis).duplicate({ autoResubscribe: false, enableOfflineQueue: true });
    const listen = (event: string, listener: Parameters<Redis['on']>[1]) => {
      connection.on(event, listener);
      this.detach.push(() => connection.off(event, listener));
    };
    listen(sharded ? 'smessage' : 'message', (channel: string, payload: string) =>
      onMessage(channel, payload),
    );
    if (client.isCluster) {
      // What a Cluster reports when a node drops a subscriber or leaves (shard-watch.ts).
      for (const event of ['nodeError', '-node']) listen(event, () => onTrouble());
    } else {
      listen('error', (error: unknown) =>
        logger.debug(`redis subscriber connection: ${describeError(error)}`),
      );
      const resubscriber = new Resubscriber({
        connection: connection as Redis,
        channels,
        subscribe: (channel) => this.subscribe(connection, channel),
        logger,
      });
      this.detach.push(() => resubscriber.stop());
    }
    this.connection = connection;
    return connection;
  }

  private end(): void {
    for (const detach of this.detach.splice(0)) detach();
    const connection = this.connection;
    this.connection = undefined;
    if (connection && connection !== this.options.client) connection.disconnect();
  }
}
