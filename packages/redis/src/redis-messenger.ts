/**
 * The Messenger port on Redis pub/sub. Publishing uses the user's client; subscriptions live
 * where `Subscriber` puts them (a connection of their own on a standalone client, the Cluster
 * client itself on a Cluster). On a Cluster with sharded pub/sub, a `ShardWatch` also renews a
 * subscription a failover dropped.
 */
import {
  consoleLogger,
  DataDriverError,
  ErrorCode,
  type JsonObject,
  type Logger,
  MessageFanOut,
  type MessageHandler,
  type Messenger,
  type Subscription,
} from '@datadriver/core/ports';
import type { Cluster } from 'ioredis';
import {
  DEFAULT_PREFIX,
  noteTimeBound,
  type RedisAdapterOptions,
  type RedisClient,
  warnOnSlowFailure,
} from './client.js';
import { deadlineOf, within } from './deadline.js';
import { toRedisError } from './errors.js';
import { channelOf, checkPrefix } from './keys.js';
import { SHARD_CHECK_INTERVAL_MS, ShardWatch } from './shard-watch.js';
import { Subscriber } from './subscriber.js';

export interface RedisMessengerOptions extends RedisAdapterOptions {
  /**
   * Use Redis 7's sharded pub/sub (`SPUBLISH` / `SSUBSCRIBE`): on a Cluster a message then
   * travels only within the shard that owns its channel instead of to every node. A Cluster
   * client needs `shardedSubscribers: true` for it. Every server must agree on this setting.
   */
  readonly sharded?: boolean;
}

/** Refuses `sharded` on a Cluster client that cannot subscribe to shard channels. */
function checkSharded(client: RedisClient, sharded: boolean): void {
  if (!sharded || !client.isCluster || (client as Cluster).options.shardedSubscribers) return;
  throw new DataDriverError(
    ErrorCode.InvalidConfig,
    'sharded: true needs an ioredis Cluster made with shardedSubscribers: true (new Cluster(nodes, { shardedSubscribers: true, ... })): without it SSUBSCRIBE reaches no shard and nothing is delivered.',
  );
}

/**
 * Handoff messages over Redis pub/sub: each reaches the subscribers connected when it is
 * published; none is kept for a subscriber that is reconnecting.
 */
export class RedisMessenger implements Messenger {
  /** The Messenger port version this adapter implements. */
  readonly specificationVersion = 'v1';
  /** Prepended to every topic to make its channel. */
  readonly prefix: string;
  /** True for sharded pub/sub. */
  readonly sharded: boolean;
  private readonly client: RedisClient;
  /** Each call's bound on a Cluster client (`deadlineOf`). */
  private readonly deadlineMs: number | undefined;
  private readonly logger: Logger;
  private readonly fanOut: MessageFanOut;
  private readonly subscriber: Subscriber;
  /** Sharded on a Cluster only: renews subscriptions a failover dropped (see shard-watch.ts). */
  private readonly watch: ShardWatch | undefined;

  constructor(options: RedisMessengerOptions) {
    this.client = options.client;
    this.deadlineMs = deadlineOf(this.client);
    this.prefix = checkPrefix(options.prefix ?? DEFAULT_PREFIX);
    this.sharded = options.sharded ?? false;
    checkSharded(this.client, this.sharded);
    this.logger = options.logger ?? consoleLogger('[DataDriver redis]');
    warnOnSlowFailure(this.client, this.logger);
    noteTimeBound(this.client, this.logger);
    this.fanOut = new MessageFanOut({
      logger: this.logger,
      release: (channel) => this.release(channel),
    });
    this.subscriber = new Subscriber({
      client: this.client,
      sharded: this.sharded,
      deadlineMs: this.deadlineMs,
      logger: this.logger,
      channels: () => this.fanOut.channels(),
      onMessage: (channel, payload) => {
        if (!this.watch?.receive(payload)) this.fanOut.deliver(channel, payload);
      },
      onTrouble: () => this.watch?.alarm(),
    });
    this.watch =
      this.sharded && this.client.isCluster
        ? new ShardWatch({
            channels: () => this.fanOut.channels(),
            publish: (channel, payload) =>
              within(this.deadlineMs, this.client.spublish(channel, payload)),
            renew: (lost) => this.subscriber.renew(lost),
            logger: this.logger,
            intervalMs: SHARD_CHECK_INTERVAL_MS,
          })
        : undefined;
  }

  /** The channel of `topic`. */
  channelOf(topic: string): string {
    return channelOf(this.prefix, topic);
  }

  /** Publishes `message` as JSON; resolves once Redis accepted it, subscribers or not. */
  async publish(topic: string, message: JsonObject): Promise<void> {
    const channel = this.channelOf(topic);
    const payload = JSON.stringify(message);
    try {
      const sent = this.sharded
        ? this.client.spublish(channel, payload)
        : this.client.publish(channel, payload);
      await within(this.deadlineMs, sent);
    } catch (error) {
      throw toRedisError(error, 'publish', channel);
    }
  }

  /**
   * Calls `handler` with each JSON object published to `topic` from the moment this resolves.
   * Payloads that are not JSON objects are dropped with a debug line.
   */
  async subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
    const channel = this.channelOf(topic);
    const subscription = this.fanOut.add(channel, handler);
    try {
      await this.subscriber.add(channel);
    } catch (error) {
      // Not awaited: ending a subscription the backend may never have made must not hold up
      // the caller's rejection (during an outage its UNSUBSCRIBE waits out the deadline too).
      void subscription.unsubscribe();
      throw toRedisError(error, 'subscribe', channel);
    }
    this.watch?.start();
    return subscription;
  }

  /** Ends every subscription (and closes the connection of its own, if any); the client stays open. */
  async close(): Promise<void> {
    const channels = this.fanOut.clear();
    this.watch?.stop();
    await this.subscriber.close(channels);
  }

  /** A channel lost its last handler: unsubscribe it; the last channel of all closes. */
  private async release(channel: string): Promise<void> {
    if (this.fanOut.channels().length > 0) return this.subscriber.remove(channel);
    this.watch?.stop();
    await this.subscriber.removeLast(channel);
  }
}
