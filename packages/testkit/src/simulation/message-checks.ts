/**
 * message-once and coins-conserved, judged from the store's committed writes and from what the
 * senders were told, never from what the drivers record about messages (`meta.messages`):
 * `applyMessage` lists each message's id beside its effect in the player's data, and a
 * transfer's sender lists its id beside the debit (player-data.ts).
 *
 * On every committed write of a profile: no id listed twice; no applied message and no debit
 * dropped by a later write; a transfer applied only once a write of its sender that debits it
 * committed. At the end, once the fleet drained: every grant whose send resolved, and every
 * transfer whose debit committed, applied exactly once to its recipient's stored data, and the
 * coins the players hold equal what they earned plus the grants applied (transfers only move
 * coins, and none is still on its way).
 */
import type { ProfileRecord } from '@datadriver/core/rules';
import type { FlowName } from './flows.js';
import { Invariant, type ViolationSink } from './invariants.js';
import { idsOf } from './player-data.js';
import type { StoreCommit } from './recording-backend.js';
import type { World } from './world.js';

/** What the commits showed so far: the transfers whose debit committed, by whom. */

/** What the message checks tell the monitor (`monitor.ts`): violations and flows reached. */
export interface MessageMonitor extends ViolationSink {
  flow(name: FlowName): void;
}

export class MessageHistory {
  /** Transfer id -> the jobId of the server whose write debited it first. */
  readonly debited = new Map<string, string>();
  /** Player key -> the token of a lock just taken, until the first write under it. */
  readonly taken = new Map<string, string>();
}

export function checkMessageCommit(
  world: World,
  monitor: MessageMonitor,
  history: MessageHistory,
  commit: StoreCommit,
): void {
  const key = world.playerKeyOf(commit.key);
  if (key === undefined) {
    inboxFlows(monitor, history, commit);
    return;
  }
  const before = (commit.before as unknown as ProfileRecord | undefined)?.data;
  const after = (commit.after as unknown as ProfileRecord).data;
  const writer = world.writerOf(commit)?.label ?? world.nameOf(commit.jobId);
  const report = (message: string) =>
    monitor.report({ invariant: Invariant.MessageOnce, key, server: writer, message });
  const received = idsOf(after, 'received');
  const sent = idsOf(after, 'sent');
  const twice = repeated(received) ?? repeated(sent);
  if (twice) {
    report(`${key}'s write lists message ${twice} twice: applied twice`);
    return;
  }
  const lost =
    idsOf(before, 'received').find((id) => !received.includes(id)) ??
    idsOf(before, 'sent').find((id) => !sent.includes(id));
  if (lost) {
    report(`${key}'s write drops message ${lost}, which an earlier write held`);
    return;
  }
  const gained = received.filter((id) => !idsOf(before, 'received').includes(id));
  for (const id of gained) {
    if (world.messages.get(id)?.kind !== 'transfer') continue;
    const debitedBy = history.debited.get(id);
    if (debitedBy === undefined) {
      report(`${key} applied transfer ${id} before a write debiting its sender committed`);
      return;
    }
    if (debitedBy !== commit.jobId) monitor.flow('transfer-across-servers');
  }
  const debits = sent.filter((id) => !history.debited.has(id));
  for (const id of debits) history.debited.set(id, commit.jobId);
  // The first write under a lock just taken is the load's pass, when it applied anything.
  const token = (commit.after as unknown as ProfileRecord).meta.lock?.token;
  const atLoad = token !== undefined && history.taken.get(key) === token;
  if (gained.length > 0) monitor.flow(atLoad ? 'applied-at-load' : 'applied-live');
  const tokenBefore = (commit.before as unknown as ProfileRecord | undefined)?.meta.lock?.token;
  if (token !== undefined && token !== tokenBefore) history.taken.set(key, token);
  else history.taken.delete(key);
  const armed = world.armedCrash;
  if (armed && world.writerOf(commit) === armed.server) {
    if (
      (armed.after === 'apply' && gained.length > 0) ||
      (armed.after === 'debit' && debits.length > 0)
    ) {
      armed.fire();
    }
  }
}

/** An inbox write that adds a transfer, by a server other than the one that debited it. */
function inboxFlows(monitor: MessageMonitor, history: MessageHistory, commit: StoreCommit) {
  if (commit.key.indexOf('#inbox/') < 0) return;
  const ids = (record: unknown) =>
    ((record as { pending?: Array<{ id?: unknown }> } | undefined)?.pending ?? []).map(
      (entry) => entry.id,
    );
  const before = new Set(ids(commit.before));
  for (const id of ids(commit.after)) {
    if (typeof id !== 'string' || before.has(id)) continue;
    const debitedBy = history.debited.get(id);
    if (debitedBy !== undefined && debitedBy !== commit.jobId)
      monitor.flow('delivered-by-next-holder');
  }
}

/** Every inbox is empty and every debited transfer applied, by the store as it is now. */
export function messagesDrained(world: World, history: MessageHistory): boolean {
  for (const player of world.players) {
    if (pendingIn(world, player.id).length > 0) return false;
  }
  for (const id of history.debited.keys()) {
    const to = world.messages.get(id)?.to;
    if (to === undefined || !idsOf(world.record(to)?.data, 'received').includes(id)) return false;
  }
  return true;
}

function repeated(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/**
 * At the end of a run (every fault healed, every player loaded, deliveries and passes given
 * time): exactly once, and conservation, over the stored records.
 */
export function checkMessagesFinal(
  world: World,
  sink: ViolationSink,
  history: MessageHistory,
): void {
  const data = new Map(world.players.map((player) => [player.id, world.record(player.id)?.data]));
  const report = (
    invariant: typeof Invariant.MessageOnce | typeof Invariant.CoinsConserved,
    key: string,
    message: string,
  ) => sink.report({ invariant, key, message: `at the end: ${message}` });
  let coins = 0;
  let earned = 0;
  let granted = 0;
  let inFlight = 0;
  for (const value of data.values()) {
    const record = value as { coins?: unknown; earned?: unknown } | undefined;
    coins += typeof record?.coins === 'number' ? record.coins : 0;
    earned += typeof record?.earned === 'number' ? record.earned : 0;
  }
  for (const message of world.messages.values()) {
    const applied = count(idsOf(data.get(message.to), 'received'), message.id);
    if (message.kind === 'grant') {
      granted += applied * message.amount;
      if (message.told !== undefined && applied !== 1) {
        report(
          Invariant.MessageOnce,
          message.to,
          `grant ${message.id}, whose send resolved ${message.told}, is applied ${applied} times to ${message.to}`,
        );
        return;
      }
      continue;
    }
    const debited = count(idsOf(data.get(message.from!), 'sent'), message.id);
    if (history.debited.has(message.id) ? applied !== 1 || debited !== 1 : applied !== 0) {
      const committed = history.debited.has(message.id)
        ? 'whose debit committed'
        : 'whose debit never committed';
      report(
        Invariant.MessageOnce,
        message.to,
        `transfer ${message.id} (${message.from} -> ${message.to}), ${committed}, is applied ${applied} times to ${message.to} and debited ${debited} times from ${message.from}`,
      );
      return;
    }
    inFlight += (debited - applied) * message.amount;
  }
  if (coins + inFlight !== earned + granted) {
    report(
      Invariant.CoinsConserved,
      world.players[0]?.id ?? '',
      `the players hold ${coins} coins and ${inFlight} are on their way, but they earned ${earned} and were granted ${granted}`,
    );
  }
}

function count(ids: readonly string[], id: string): number {
  return ids.filter((each) => each === id).length;
}

/** The ids pending in `key`'s inbox, as the store has it now. */
export function pendingIn(world: World, key: string): string[] {
  const inbox = world.backend.store.peek(world.inboxKey(key)) as
    | { pending?: Array<{ id?: unknown }> }
    | undefined;
  return (inbox?.pending ?? []).flatMap((entry) =>
    typeof entry.id === 'string' ? [entry.id] : [],
  );
}
