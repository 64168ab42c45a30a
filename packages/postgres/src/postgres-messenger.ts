/**
 * The Messenger port on PostgreSQL LISTEN/NOTIFY. Publishing is `pg_notify` through the user's
 * pool (the channel and payload as parameters); subscriptions live on one dedicated listening
 * connection (`Listener`), made from the pool's own settings unless a factory is given.
 */
import {
  consoleLogger,
  describeError,
  isPlainObject,
  type JsonObject,
  type Logger,
  MAX_MESSAGE_BYTES,
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
  private readonly handlers = new Map<string, Set<MessageHandler>>();
  private readonly listener: Listener;

  constructor(options: PostgresMessengerOptions) {
    this.pool = options.pool;
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    quoteSchema(this.schema);
    this.logger = options.logger ?? consoleLogger('[DataDriver postgres]');
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
        if (!check.receive(channel, payload)) this.dispatch(channel, payload);
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
    // A wrapper per subscription, so subscribing one function twice delivers twice. It
    // delivers only once `subscribe` has resolved: node-postgres emits a notification that
    // comes in the same packet as LISTEN's reply before the reply's promise settles.
    let live = false;
    const deliver: MessageHandler = (message) => {
      if (live) handler(message);
    };
    const handlers = this.handlers.get(channel) ?? new Set<MessageHandler>();
    handlers.add(deliver);
    this.handlers.set(channel, handlers);
    try {
      await this.listener.listen(channel);
    } catch (error) {
      void this.forget(channel, deliver);
      throw toPostgresError(error, 'subscribe', channel);
    }
    live = true;
    let active = true;
    return {
      unsubscribe: async () => {
        if (!active) return;
        active = false;
        await this.forget(channel, deliver);
      },
    };
  }

  /** Ends every subscription and the listening connection; the pool stays open. */
  async close(): Promise<void> {
    this.handlers.clear();
    await this.listener.close();
  }

  /** Removes one handler; the last one of a channel unlistens it. */
  private async forget(channel: string, deliver: MessageHandler): Promise<void> {
    const handlers = this.handlers.get(channel);
    if (!handlers?.delete(deliver) || handlers.size > 0) return;
    this.handlers.delete(channel);
    await this.listener.unlisten(channel);
  }

  private dispatch(channel: string, payload: string): void {
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
