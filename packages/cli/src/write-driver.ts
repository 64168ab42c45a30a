/**
 * The DataDriver that `restore` and `erase` write through: a server of its own (the CLI's
 * jobId), with a Handoff on the servers' messenger and presence when both are given, so a live
 * holder is asked to hand over and replies to the CLI, exactly as to a joining server. Nothing
 * is ever written under another server's lock: core's load decides.
 */
import {
  DataDriver,
  type DataDriverEvent,
  Handoff,
  type Logger,
  type Migration,
} from '@datadriver/core';
import type { CommandContext } from './options.js';

export interface WriteSession {
  readonly driver: DataDriver<object>;
  /** False without a messenger and presence: a held lock is then only waited out. */
  readonly handoff: boolean;
  readonly events: readonly DataDriverEvent[];
  close(): Promise<void>;
}

/**
 * Steps that leave data as it is, up to `schema`: the load that takes the lock refuses a
 * record of a newer schema than the driver knows, and the CLI knows no game's migrations.
 */
export function keepSchema(schema: number): Migration[] {
  return Array.from({ length: schema }, (_, index) => ({
    version: index + 1,
    migrate: (data) => data,
  }));
}

export function writeSession(context: CommandContext, name: string, schema: number): WriteSession {
  const { backends, io } = context;
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => io.stderr(`warning: ${message}\n`),
    error: (message) => io.stderr(`error: ${message}\n`),
  };
  const handoff =
    backends.messenger && backends.presence
      ? new Handoff({
          jobId: context.jobId,
          messenger: backends.messenger,
          presence: backends.presence,
          logger,
        })
      : undefined;
  const driver = new DataDriver<object>({
    name,
    defaults: {},
    store: backends.store,
    ...(backends.messenger ? { messenger: backends.messenger } : {}),
    ...(backends.presence ? { presence: backends.presence } : {}),
    jobId: context.jobId,
    handoff: handoff ?? false,
    lockWaitSeconds: context.lockWaitSeconds,
    lockTtlSeconds: context.lockTtlSeconds,
    lockSkewSeconds: context.lockSkewSeconds,
    autosaveSeconds: Math.min(30, context.lockTtlSeconds / 2),
    migrations: keepSchema(schema),
    logger,
  });
  const events: DataDriverEvent[] = [];
  driver.on((event) => {
    events.push(event);
    if (!context.json) {
      const line = progressLine(event);
      if (line) io.stderr(`${line}\n`);
    }
  });
  return {
    driver,
    handoff: handoff !== undefined,
    events,
    close: async () => {
      await driver.close();
      await handoff?.destroy();
    },
  };
}

function progressLine(event: DataDriverEvent): string | undefined {
  switch (event.type) {
    case 'load.waiting':
      return event.holder ? `waiting: locked by server ${event.holder.jobId}` : undefined;
    case 'handoff.request.sent':
      return `asked server ${event.holder} to hand over`;
    case 'handoff.reply.received':
      return 'the holder released the lock';
    case 'presence.read':
      return `presence of ${event.holder}: ${event.answer}`;
    case 'load.loaded':
      return `took the lock (${event.reason}) after ${event.waitedMs} ms`;
    default:
      // The seed's warnings (a takeover of a stopped server's lock) come through the logger.
      return undefined;
  }
}
