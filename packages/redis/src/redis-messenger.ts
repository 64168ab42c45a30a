/**
 * The Messenger port on Redis pub/sub. Publishing uses the user's client; subscriptions live
 * where `Subscriber` puts them (a connection of their own on a standalone client, the Cluster
 * client itself on a Cluster). On a Cluster with sharded pub/sub, a `ShardWatch` also renews a
 * subscription a failover dropped.
 */
import {
  consoleLogger,
  DataDriverError,
  describeError,
  ErrorCode,
  isPlainObject,
  type JsonObject,
  type Logger,
  MAX_MESSAGE_BYTES,
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

/** A JSON object from a payload, or `undefined` for anything else (an oversized one unparsed). */
function parseMessage(payload: string): JsonObject | undefined {
  if (Buffer.byteLength(payload, 'utf8') > MAX_MESSAGE_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(payload);
    return isPlainObject(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
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
  private readonly handlers = new Map<string, Set<MessageHandler>>();
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
    this.subscriber = new Subscriber({
      client: this.client,
      sharded: this.sharded,
      deadlineMs: this.deadlineMs,
      logger: this.logger,
      channels: () => [...this.handlers.keys()],
      onMessage: (channel, payload) => this.dispatch(channel, payload),
      onTrouble: () => this.watch?.alarm(),
    });
    this.watch =
      this.sharded && this.client.isCluster
        ? new ShardWatch({
            channels: () => [...this.handlers.keys()],
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
    // A wrapper per subscription, so subscribing one function twice delivers twice.
    const deliver: MessageHandler = (message) => handler(message);
    const handlers = this.handlers.get(channel) ?? new Set<MessageHandler>();
    handlers.add(deliver);
    this.handlers.set(channel, handlers);
    try {
      await this.subscriber.add(channel);
    } catch (error) {
      // Not awaited: ending a subscription the backend may never have made must not hold up
      // the caller's rejection (during an outage its UNSUBSCRIBE waits out the deadline too).
      void this.forget(channel, deliver);
      throw toRedisError(error, 'subscribe', channel);
    }
    this.watch?.start();
    let active = true;
    return {
      unsubscribe: async () => {
        if (!active) return;
        active = false;
        await this.forget(channel, deliver);
      },
    };
  }

  /** Ends every subscription (and closes the connection of its own, if any); the client stays open. */
  async close(): Promise<void> {
    const channels = [...this.handlers.keys()];
    this.handlers.clear();
    this.watch?.stop();
    await this.subscriber.close(channels);
  }

  /** Removes one handler; the last one of a channel unsubscribes it, the last of all closes. */
  private async forget(channel: string, deliver: MessageHandler): Promise<void> {
    const handlers = this.handlers.get(channel);
    if (!handlers?.delete(deliver) || handlers.size > 0) return;
    this.handlers.delete(channel);
    if (this.handlers.size > 0) return this.subscriber.remove(channel);
    this.watch?.stop();
    await this.subscriber.removeLast(channel);
  }

  private dispatch(channel: string, payload: string): void {
    if (this.watch?.receive(payload)) return;
    const handlers = this.handlers.get(channel);
    if (!handlers) return;
    if (parseMessage(payload) === undefined) {
      this.logger.debug(`ignored a message on ${channel} that is not a JSON object`, {
        payload: payload.slice(0, 200),
      });
      return;
    }
    for (const handler of handlers) {
      try {
        // Each handler gets its own copy, as from separate deliveries.
        handler(parseMessage(payload));
      } catch (error) {
        this.logger.error(`a message handler of ${channel} threw: ${describeError(error)}`);
      }
    }
  }
}
