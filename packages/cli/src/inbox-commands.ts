/**
 * `inbox` and `send`: a profile's pending messages (issue 28), listed, one dropped unapplied
 * (`--drop`, for a message whose handler always fails), or one sent through core's own
 * `DataDriver.send`. A drop writes only the inbox, in one compare-and-set through core's
 * `dropPending`, never the profile: a holder's pass that read the message before the drop
 * applies it once, and nothing applies it again.
 */
import { DataDriver } from '@datadriver/core';
import { DataDriverError, ErrorCode } from '@datadriver/core/ports';
import {
  dropPending,
  inboxKeyOf,
  inboxRecord,
  limitsFor,
  parseInbox,
  parseRecord,
} from '@datadriver/core/rules';
import { preview, quoted, table, when } from './format.js';
import { readInbox } from './inbox-read.js';
import { refuseEmptyNamespace } from './inspect.js';
import type { CommandContext } from './options.js';
import { quietLogger } from './quiet-logger.js';
import { print } from './read-commands.js';
import { storeKeyOf } from './store-keys.js';
import { confirm } from './write-commands.js';

export interface PendingRow {
  readonly id: string;
  /** The sender's clock when it was sent (a transfer's: when its change was written), ms. */
  readonly at: number;
  /** The message as stored (id, body, time, sender), in UTF-8 bytes of its JSON. */
  readonly sizeBytes: number;
  readonly from?: string;
  readonly body: unknown;
}

export interface InboxListing {
  readonly driver: string;
  readonly key: string;
  readonly inboxKey: string;
  readonly pending: readonly PendingRow[];
  /** Ids the receipt window remembers after their messages were applied (or dropped). */
  readonly remembered: number;
}

export interface DropResult {
  readonly driver: string;
  readonly key: string;
  readonly id: string;
  readonly dropped: true;
  /** The profile records the id as applied: its holder applied it before the drop took. */
  readonly appliedByHolder: boolean;
}

export async function inboxCommand(
  context: CommandContext,
  driver: string,
  key: string,
  options: { readonly drop?: string; readonly yes?: boolean },
): Promise<InboxListing | DropResult> {
  if (options.drop !== undefined) return drop(context, driver, key, options.drop, options.yes);
  const inboxKey = inboxKeyOf(driver, key);
  const inbox = await readInbox(context.backends.store, inboxKey);
  // No inbox: a wrong --prefix, --table or driver name reads as one, as for inspect.
  if (inbox === undefined) {
    await refuseEmptyNamespace(context.backends.store, context.backends.where, driver);
  }
  const listing: InboxListing = {
    driver,
    key,
    inboxKey,
    pending: (inbox?.pending ?? []).map((message) => ({
      id: message.id,
      at: message.at,
      sizeBytes: Buffer.byteLength(JSON.stringify(message), 'utf8'),
      ...(message.from === undefined ? {} : { from: message.from }),
      body: message.body,
    })),
    remembered: inbox?.done.length ?? 0,
  };
  const now = context.now();
  print(context, listing, () => {
    const title = `${inboxKey}  (${context.backends.where})\n`;
    const summary = `${listing.pending.length} pending; ${listing.remembered} id(s) remembered (applied or dropped)\n`;
    if (listing.pending.length === 0) return title + summary;
    return (
      title +
      table(
        ['id', 'sent', 'size', 'from', 'body'],
        listing.pending.map((row) => [
          quoted(row.id),
          when(row.at, now),
          `${row.sizeBytes} B`,
          row.from === undefined ? '' : quoted(row.from),
          preview(row.body, 60),
        ]),
      ) +
      summary
    );
  });
  return listing;
}

async function drop(
  context: CommandContext,
  driver: string,
  key: string,
  id: string,
  yes: boolean | undefined,
): Promise<DropResult> {
  const { store } = context.backends;
  const inboxKey = inboxKeyOf(driver, key);
  const message = (await readInbox(store, inboxKey))?.pending.find((item) => item.id === id);
  if (message === undefined) throw notPending(inboxKey, id);
  await confirm(context, yes, 'drop', [
    ['drop', `${quoted(id)} from ${inboxKey}, unapplied`],
    ['sent', when(message.at, context.now())],
    ['body', preview(message.body)],
    ['then', 'a send with this id is a duplicate; a holder applying it right now applies it once'],
  ]);
  const limits = limitsFor(store.maxRecordBytes);
  let dropped = false;
  await store.update(inboxKey, (current) => {
    const next = dropPending(parseInbox(inboxKey, current, limits), id, limits);
    dropped = next !== undefined;
    return next === undefined ? undefined : inboxRecord(next);
  });
  // Applied and trimmed by the holder between the read above and the write: nothing dropped.
  if (!dropped) throw notPending(inboxKey, id);
  const record = parseRecord(key, await store.get(storeKeyOf(driver, key)));
  const appliedByHolder = record?.meta.messages?.applied.includes(id) ?? false;
  const result: DropResult = { driver, key, id, dropped: true, appliedByHolder };
  print(context, result, () =>
    appliedByHolder
      ? `dropped ${quoted(id)} from ${inboxKey}, but its holder had applied it already (once; the drop wrote only the inbox)\n`
      : `dropped ${quoted(id)} from ${inboxKey}: it will not be applied; a send with this id is a duplicate\n`,
  );
  return result;
}

export interface SendCliResult {
  readonly driver: string;
  readonly key: string;
  readonly id: string;
  readonly outcome: 'queued' | 'duplicate';
}

export async function sendCommand(
  context: CommandContext,
  driver: string,
  key: string,
  body: string,
  options: { readonly id: string },
): Promise<SendCliResult> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `the message must be JSON (${(error as Error).message}); nothing was written`,
    );
  }
  const { backends } = context;
  // A driver that holds nothing: it writes the inbox, then nudges the holder on the bus.
  const sender = new DataDriver<object>({
    name: driver,
    defaults: {},
    store: backends.store,
    ...(backends.messenger ? { messenger: backends.messenger } : {}),
    jobId: context.jobId,
    handoff: false,
    logger: quietLogger,
  });
  let outcome: SendCliResult['outcome'];
  try {
    ({ outcome } = await sender.send(key, value, { id: options.id }));
  } finally {
    await sender.close();
  }
  const result: SendCliResult = { driver, key, id: options.id, outcome };
  const inboxKey = inboxKeyOf(driver, key);
  print(context, result, () =>
    outcome === 'queued'
      ? `queued ${quoted(options.id)} in ${inboxKey}: its holder applies it once (now if it holds the profile, else at its next load)\n`
      : `duplicate: ${inboxKey} already received ${quoted(options.id)}; nothing was written\n`,
  );
  return result;
}

function notPending(inboxKey: string, id: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.InvalidArgument,
    `${quoted(id)} is not pending in ${inboxKey} (applied, dropped, or never sent); nothing was written`,
    { details: { inboxKey, id } },
  );
}
