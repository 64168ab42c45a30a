/**
 * Once per messenger, after its first listening session is made: a notification published
 * through the pool must reach that session. Behind PgBouncer in transaction (or statement)
 * mode it does not: LISTEN runs on whichever server connection the pooler lends for that one
 * statement, and nothing delivers to it afterwards; every handoff request would then be lost
 * in silence. The check cannot prevent that, only say it: a warning names the likely cause.
 */
import { randomBytes } from 'node:crypto';
import { describeError, type Logger } from '@datadriver/core/ports';
import type { Pool } from 'pg';

export interface DeliveryCheckOptions {
  readonly pool: Pool;
  readonly logger: Logger;
  /** How long the check's own notification may take before the warning (ms). */
  readonly waitMs: number;
}

export class DeliveryCheck {
  private readonly channel = `dd_check_${randomBytes(12).toString('hex')}`;
  private readonly token = randomBytes(12).toString('hex');
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly options: DeliveryCheckOptions) {}

  /** Starts the check on the first session only; `listen` subscribes the session to a channel. */
  start(
    listen: (channel: string) => Promise<void>,
    unlisten: (channel: string) => Promise<void>,
  ): void {
    if (this.started) return;
    this.started = true;
    this.unlisten = () => unlisten(this.channel);
    void this.run(listen);
  }

  /** True for the check's own channel (consumed here); false for every other. */
  receive(channel: string, payload: string): boolean {
    if (channel !== this.channel) return false;
    if (payload === this.token) this.finish();
    return true;
  }

  private async run(listen: (channel: string) => Promise<void>): Promise<void> {
    const { pool, logger, waitMs } = this.options;
    try {
      await listen(this.channel);
      this.timer = setTimeout(() => {
        logger.warn(
          `a notification published through the pool did not reach the listening connection within ${waitMs} ms: handoff messages will not arrive. LISTEN needs a session of its own: is the listening connection going through PgBouncer (or another pooler) in transaction or statement mode, or to another database than the pool? Give the messenger a listenerClient that connects directly (see the README).`,
        );
        this.finish();
      }, waitMs);
      this.timer.unref();
      await pool.query('SELECT pg_notify($1, $2)', [this.channel, this.token]);
    } catch (error) {
      // An outage, not a pooler: the connection loss is reported where it happens.
      logger.debug(`postgres delivery check not run: ${describeError(error)}`);
      this.finish();
    }
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    void unlisten?.();
  }
}
