/**
 * What `restoreAt` does with messages. It writes the old data with the current
 * `meta.messages`: the ids applied since the restored version stay recorded, so their messages
 * are not applied again (their effects are rolled back with the data), and pending messages are
 * applied once, to the restored data, by a pass after the restore (never by the restore's own
 * load, whose effect the restore would overwrite while keeping its ids). The outbox is kept: a
 * committed transfer is still delivered. The ids rolled back are reported to the operator.
 */
import type { ProfileMessages } from './profile-messages.js';

export interface RestoredMessages {
  /** What the restored record keeps: the current `meta.messages`, unchanged. */
  readonly messages: ProfileMessages;
  /**
   * The ids applied now that the restored version had not recorded: messages whose effect the
   * restore rolls back. Only the ids still in the window are known (at least the last 100).
   */
  readonly rolledBack: readonly string[];
}

export function restoredMessages(
  current: ProfileMessages,
  restoredVersion: ProfileMessages,
): RestoredMessages {
  const before = new Set(restoredVersion.applied);
  return {
    messages: current,
    rolledBack: current.applied.filter((id) => !before.has(id)),
  };
}
