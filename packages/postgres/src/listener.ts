/**
 * The messenger's listening session: one dedicated connection (LISTEN holds a session, so it
 * cannot be a pooled one), opened on the first subscription. When it is lost (an error, the
 * server's restart, a cut network) a new one is made after a short growing pause, and every
 * channel is listened to again. A silent connection is found by a heartbeat query. Messages
 * published while no session listens are lost, as the port allows.
 */
import { describeError, type Logger } from '@datadriver/core/ports';
import type { Client, Notification } from 'pg';

export interface ListenerOptions {
  /** A new, unconnected client for each session. */
  readonly makeClient: () => Client;
  readonly logger: Logger;
  /** Each notification on any channel of the session. */
  readonly onMessage: (channel: string, payload: string) => void;
  /** Runs once after each session is made and listens to every channel. */
  readonly onSession?: () => void;
  /** How often a live session is checked (ms). */
  readonly heartbeatMs: number;
}

const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 2_000;

/** LISTEN's argument is an identifier, never a parameter: only names `channelOf` makes reach it. */
function quoted(channel: string): string {
  if (!/^[a-z0-9_]{1,63}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return `"${channel}"`;
}

export class Listener {
  private readonly channels = new Set<string>();
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private pauseMs = FIRST_PAUSE_MS;
  private closed = false;

  constructor(private readonly options: ListenerOptions) {}

  /** Listens to `channel`, opening the session if there is none; rejects when it cannot. */
  async listen(channel: string): Promise<void> {
    this.channels.add(channel);
    try {
      const client = await this.session();
      await client.query(`LISTEN ${quoted(channel)}`);
    } catch (error) {
      this.channels.delete(channel);
      throw error;
    }
  }

  /** Stops listening to `channel`; the last one ends the session. A failure is only logged. */
  async unlisten(channel: string): Promise<void> {
    if (!this.channels.delete(channel)) return;
    if (this.channels.size === 0) return this.end();
    const client = this.client;
    if (!client) return;
    try {
      await client.query(`UNLISTEN ${quoted(channel)}`);
    } catch (error) {
      // Nothing is delivered to a channel without handlers: a failed UNLISTEN costs traffic.
      this.options.logger.debug(`postgres UNLISTEN ${channel} failed: ${describeError(error)}`);
    }
  }

  /** Ends the session for good. */
  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    await this.end();
  }

  /** The live session, or a new one listening to every channel. */
  private session(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('the messenger is closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const client = this.options.makeClient();
    // Without a listener an 'error' would be thrown as an uncaught exception.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    client.on('notification', (message: Notification) => {
      if (this.client === client) this.options.onMessage(message.channel, message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN ${quoted(channel)}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('the messenger is closed');
    }
    this.client = client;
    this.pauseMs = FIRST_PAUSE_MS;
    this.startHeartbeat(client);
    this.options.onSession?.();
    return client;
  }

  /** The session ended under us: make another, unless nothing is listened to any more. */
  private lost(client: Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.stopHeartbeat();
    client.end().catch(() => undefined);
    if (this.closed || this.channels.size === 0) return;
    this.options.logger.warn(
      `postgres listening connection lost${error ? ` (${describeError(error)})` : ''}; reconnecting, messages published meanwhile are lost`,
    );
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    const pause = this.pauseMs;
    this.pauseMs = Math.min(MAX_PAUSE_MS, this.pauseMs * 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed || this.channels.size === 0 || this.client) return;
      this.session().catch((error: unknown) => {
        this.options.logger.debug(`postgres listening reconnect failed: ${describeError(error)}`);
        this.scheduleRetry();
      });
    }, pause);
    this.retryTimer.unref();
  }

  /** A query now and then: a connection that went silent (no FIN, no RST) fails it and is replaced. */
  private startHeartbeat(client: Client): void {
    this.stopHeartbeat();
    this.heartbeat = setInterval(() => {
      const timeout = setTimeout(
        () => this.lost(client, new Error('heartbeat unanswered')),
        this.options.heartbeatMs,
      );
      client
        .query('SELECT 1')
        .catch((error: unknown) => this.lost(client, error as Error))
        .finally(() => clearTimeout(timeout));
    }, this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private async end(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.stopHeartbeat();
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }
}
