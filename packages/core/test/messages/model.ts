/**
 * A model of two players' profiles, their inboxes, a holder per profile and outside senders,
 * driven over the pure rules only. Every write has a fate: it commits and is answered (`ok`),
 * commits and its answer is lost (`lost`), commits later while its writer has moved on
 * (`late`, inbox writes only: sends, deliveries and trims are not guarded by the lock), or does
 * not commit (`failed`). A writer that got no answer knows nothing, as a rejected `update`
 * may or may not have committed. A crash ends a holder; the next starts from the records.
 *
 * Each profile's data holds `coins` and, for the checks only, `log`: every message id applied
 * to it. The model applies what the rules pick and writes what they build; the test checks
 * the invariants the simulator will get.
 */
import {
  appendMessage,
  deliveryOf,
  type Inbox,
  type InboxLimits,
  type InboxMessage,
  type OutboxEntry,
  type ProfileMessages,
  planApply,
  recordApplied,
  type SendOutcome,
  settleDelivery,
  toDeliver,
  trimInbox,
} from '../../src/rules/messages/index.js';

export type Fate = 'ok' | 'lost' | 'late' | 'failed';
export const KEYS = ['alice', 'bob'] as const;
export type Key = (typeof KEYS)[number];
export const START_COINS = 50;

export interface Profile {
  readonly coins: number;
  readonly log: readonly string[];
  readonly messages: ProfileMessages;
}

/** What a holder keeps in memory: lost with it on a crash. */
interface Holder {
  /** Deliveries answered, dropped from the outbox by the holder's next profile write. */
  readonly settled: Map<string, SendOutcome['outcome']>;
  pass?: {
    readonly read: Inbox | undefined;
    readonly apply: readonly InboxMessage[];
    written: boolean;
  };
}

type InboxWrite = (inbox: Inbox | undefined) => Inbox | undefined;

export class Model {
  readonly profiles = new Map<Key, Profile>();
  readonly inboxes = new Map<Key, Inbox | undefined>();
  private readonly holders = new Map<Key, Holder>();
  private readonly late: Array<{ key: Key; write: InboxWrite }> = [];
  /** Grants an outside sender tried, by id, with the key and amount; `acked` once answered. */
  readonly grants = new Map<string, { to: Key; coins: number; acked: boolean }>();
  /** Transfers whose change (coins off, outbox entry) committed: id to recipient and amount. */
  readonly transfers = new Map<string, { to: Key; coins: number }>();
  private clock = 1;
  private nextTransfer = 0;

  constructor(readonly limits: InboxLimits) {
    for (const key of KEYS) {
      this.profiles.set(key, {
        coins: START_COINS,
        log: [],
        messages: { applied: [], outbox: [] },
      });
      this.inboxes.set(key, undefined);
      this.crash(key);
    }
  }

  tick(): number {
    this.clock += 1;
    return this.clock;
  }

  crash(key: Key): void {
    this.holders.set(key, { settled: new Map() });
  }

  /** An outside send of grant `id` (its key and amount fixed by the id), answered or not. */
  grant(id: string, to: Key, coins: number, fate: Fate): void {
    const known = this.grants.get(id);
    if (known === undefined) this.grants.set(id, { to, coins, acked: false });
    // Each send call is a new attempt with its own time; one that runs late keeps its time.
    const message: InboxMessage = { id, body: { coins }, at: this.tick() };
    let outcome: SendOutcome['outcome'] | undefined;
    this.inboxWrite(
      to,
      fate,
      (inbox) => {
        const result = appendMessage(to, inbox, message, this.limits);
        outcome = result.outcome;
        return result.outcome === 'queued' ? result.inbox : undefined;
      },
      () => {
        // An uncertain answer rejects the send: the sender tries again later.
        if (outcome !== 'uncertain') (this.grants.get(id) as { acked: boolean }).acked = true;
      },
    );
  }

  /** Alice's (or Bob's) holder moves `coins` to the other: one write of change and outbox. */
  transfer(from: Key, coins: number, fate: Fate): void {
    const to: Key = from === 'alice' ? 'bob' : 'alice';
    if (this.profile(from).coins < coins || fate === 'late') return;
    const id = `t${this.nextTransfer++}`;
    const entry: OutboxEntry = { to, id, body: { coins }, at: this.tick() };
    const committed = this.profileWrite(from, fate, (profile) => ({
      ...profile,
      coins: profile.coins - coins,
      messages: { ...profile.messages, outbox: [...profile.messages.outbox, entry] },
    }));
    if (committed) this.transfers.set(id, { to, coins });
  }

  /** The holder reads its inbox (after its lock) and picks what to apply. */
  read(key: Key): void {
    const holder = this.holder(key);
    if (holder.pass !== undefined) return;
    const read = this.inboxes.get(key);
    const plan = planApply(read, this.profile(key).messages.applied);
    holder.pass = { read, apply: plan.apply, written: false };
  }

  /** The pass's one compare-and-set: the messages' effect and their ids together. */
  write(key: Key, fate: Fate): void {
    const pass = this.holder(key).pass;
    if (pass === undefined || pass.written || fate === 'late') return;
    const ids = pass.apply.map((message) => message.id);
    const gained = pass.apply.reduce(
      (sum, message) => sum + (message.body as { coins: number }).coins,
      0,
    );
    if (ids.length > 0) {
      this.profileWrite(key, fate, (profile) => ({
        coins: profile.coins + gained,
        log: [...profile.log, ...ids],
        messages: {
          ...profile.messages,
          applied: recordApplied(profile.messages.applied, ids, pass.read, this.limits.appliedTail),
        },
      }));
    }
    if (fate === 'ok' || ids.length === 0) pass.written = true;
    else this.holder(key).pass = undefined;
  }

  /** After the write is known committed: trim what the profile records as applied. */
  trim(key: Key, fate: Fate): void {
    const holder = this.holder(key);
    const pass = holder.pass;
    if (pass === undefined || !pass.written) return;
    holder.pass = undefined;
    const applied = new Set(this.profile(key).messages.applied);
    this.inboxWrite(key, fate, (inbox) => trimInbox(inbox, applied, this.limits));
  }

  /** The holder delivers its oldest undelivered transfer (a first attempt or not: the same). */
  deliver(from: Key, fate: Fate): void {
    const holder = this.holder(from);
    const entry = toDeliver(this.outboxOf(from)).find((item) => !holder.settled.has(item.id));
    if (entry === undefined) return;
    let outcome: SendOutcome['outcome'] | undefined;
    this.inboxWrite(
      entry.to as Key,
      fate,
      (inbox) => {
        const result = appendMessage(entry.to, inbox, deliveryOf(from, entry), this.limits);
        outcome = result.outcome;
        return result.outcome === 'queued' ? result.inbox : undefined;
      },
      () => holder.settled.set(entry.id, outcome as SendOutcome['outcome']),
    );
  }

  /** A profile write of nothing but the settled deliveries (a save, an autosave). */
  save(key: Key, fate: Fate): void {
    if (this.holder(key).settled.size === 0 || fate === 'late') return;
    this.profileWrite(key, fate, (profile) => profile);
  }

  /** The oldest late inbox write lands. */
  land(): void {
    const next = this.late.shift();
    if (next !== undefined) this.commitInbox(next.key, next.write);
  }

  landAll(): void {
    while (this.late.length > 0) this.land();
  }

  profile(key: Key): Profile {
    return this.profiles.get(key) as Profile;
  }

  pendingIn(key: Key): number {
    return this.inboxes.get(key)?.pending.length ?? 0;
  }

  toDeliverFrom(key: Key): OutboxEntry[] {
    return toDeliver(this.outboxOf(key));
  }

  private outboxOf(key: Key): readonly OutboxEntry[] {
    return this.profile(key).messages.outbox;
  }

  private holder(key: Key): Holder {
    return this.holders.get(key) as Holder;
  }

  /** Commits `change` plus the holder's settled deliveries; true when it committed. */
  private profileWrite(key: Key, fate: Fate, change: (profile: Profile) => Profile): boolean {
    if (fate === 'failed') return false;
    const holder = this.holder(key);
    const changed = change(this.profile(key));
    let outbox = changed.messages.outbox;
    for (const [id, outcome] of holder.settled) outbox = settleDelivery(outbox, id, outcome);
    this.profiles.set(key, { ...changed, messages: { ...changed.messages, outbox } });
    if (fate === 'ok') holder.settled.clear();
    else this.crash(key); // the answer is lost: the holder is replaced, knowing nothing
    return true;
  }

  /**
   * An inbox write, answered only when `ok` and not refused. A `late` one runs its transform
   * when it lands, on the inbox as it is then: an update its caller stopped waiting for may
   * still run its retries later, so this is the worst a store can do.
   */
  private inboxWrite(key: Key, fate: Fate, write: InboxWrite, answered?: () => void): void {
    if (fate === 'failed') return;
    if (fate === 'late') {
      this.late.push({ key, write });
      return;
    }
    const refused = !this.commitInbox(key, write);
    if (fate === 'ok' && !refused) answered?.();
  }

  /** False when the transform threw a typed error (a full inbox): nothing written. */
  private commitInbox(key: Key, write: InboxWrite): boolean {
    try {
      const next = write(this.inboxes.get(key));
      if (next !== undefined) this.inboxes.set(key, next);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== 'Data.InboxFull') throw error;
      return false;
    }
  }
}
