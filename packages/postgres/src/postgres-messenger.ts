/**
 * The Messenger port on PostgreSQL LISTEN/NOTIFY. Publishing is `pg_notify` through the user's
 * pool (the channel and payload as parameters); subscriptions live on one dedicated listening
 * connection (`Listener`), made from the pool's own settings unless a factory is given.
 */
import {
  consoleLogger,
  type JsonObject,
  type Logger,
  MessageFanOut,
  type MessageHandler,
  type Messenger,
  type Subscription,
} from '@datadriver/core/ports';
import pg from 'pg';
import { channelOf } from './channels.js';
import { DeliveryCheck } from './delivery-check.js';
import { toPostgresError } from './errors.js';
import { Listener } from './listener.js';
import { DEFAULT_SCHEMA, quoteSchema } from './schema-name.js';

export interface PostgresMessengerOptions {
  /** The application's `pg` Pool: messages are published through it. */
  readonly pool: pg.Pool;
  /**
   * Makes the listening connection: a new, unconnected `pg.Client` each time one is needed
   * (at the first subscription, and after a connection loss). Default: a client with the
   * pool's own settings. It must reach PostgreSQL directly or through a pooler in session mode:
   * LISTEN does not work through PgBouncer in transaction mode (see the README).
   */
  readonly listenerClient?: () => pg.Client;
  /**
   * Keeps this messenger's channels apart from another's on the same database (default
   * `datadriver`, the store's schema): channels are per database, not per schema.
   */
  readonly schema?: string;
  /** How often the listening connection is checked, in ms (default 10,000). */
  readonly heartbeatMs?: number;
  /**
   * How long the first listening session waits for a notification the messenger sends itself
   * through the pool before it warns that notifications do not arrive, in ms (default 5,000).
   */
  readonly deliveryCheckMs?: number;
  /** Gets a warning for each lost listening connection (default: the console). */
  readonly logger?: Logger;
}

/**
 * Handoff messages over NOTIFY: each reaches the sessions listening when its transaction
 * commits (at once: `pg_notify` runs in a transaction of its own); none is kept for a session
 * that is reconnecting.
 */
export class PostgresMessenger implements Messenger {
  /** The Messenger port version this adapter implements. */
  readonly specificationVersion = 'v1';
  /** The schema whose name keeps the channels apart. */
  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly logger: Logger;
  private readonly fanOut: MessageFanOut;
  private readonly listener: Listener;

  constructor(options: PostgresMessengerOptions) {
    this.pool = options.pool;
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    quoteSchema(this.schema);
    this.logger = options.logger ?? consoleLogger('[DataDriver postgres]');
    // The last handler of a channel unlistens it.
    this.fanOut = new MessageFanOut({
      logger: this.logger,
      release: (channel) => this.listener.unlisten(channel),
    });
    const makeClient = options.listenerClient ?? (() => new pg.Client(this.pool.options));
    const check = new DeliveryCheck({
      pool: this.pool,
      logger: this.logger,
      waitMs: options.deliveryCheckMs ?? 5_000,
    });
    this.listener = new Listener({
      makeClient,
      logger: this.logger,
      heartbeatMs: options.heartbeatMs ?? 10_000,
      onMessage: (channel, payload) => {
        if (!check.receive(channel, payload)) this.fanOut.deliver(channel, payload);
      },
      onSession: () =>
        check.start(
          (channel) => this.listener.listen(channel),
          (channel) => this.listener.unlisten(channel),
        ),
    });
  }

  /** The channel of `topic`. */
  channelOf(topic: string): string {
    return channelOf(this.schema, topic);
  }

  /** Publishes `message` as JSON; resolves once PostgreSQL accepted it, listeners or not. */
  async publish(topic: string, message: JsonObject): Promise<void> {
    const channel = this.channelOf(topic);
    try {
      await this.pool.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify(message)]);
    } catch (error) {
      throw toPostgresError(error, 'publish', channel);
    }
  }

  /**
   * Calls `handler` with each JSON object published to `topic` from the moment this resolves.
   * Payloads that are not JSON objects are dropped with a debug line.
   */
  async subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
    const channel = this.channelOf(topic);
    // It delivers only once `subscribe` has resolved: node-postgres emits a notification that
    // comes in the same packet as LISTEN's reply before the reply's promise settles.
    let live = false;
    const subscription = this.fanOut.add(channel, (message) => {
      if (live) handler(message);
    });
    try {
      await this.listener.listen(channel);
    } catch (error) {
      void subscription.unsubscribe();
      throw toPostgresError(error, 'subscribe', channel);
    }
    live = true;
    return subscription;
  }

  /** Ends every subscription and the listening connection; the pool stays open. */
  async close(): Promise<void> {
    this.fanOut.clear();
    await this.listener.close();
  }
}
