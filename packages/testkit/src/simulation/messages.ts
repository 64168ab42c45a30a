/**
 * The message workload of a run (half the runs, from their own streams, so the rest of a seed
 * draws as before): grants sent from outside by a sender process that holds nothing (a payment
 * webhook: `driver.send` with an id, resent as a provider retries, through lost responses and
 * its own crashes), and transfers between players (a holder takes coins off one player and
 * `profile.send`s them to another, wherever that one is). Every server applies them with
 * `applyMessage`. Its faults: the sender's writes fail or lose their response, the sender
 * crashes mid-send, a holder crashes right after the write that applied messages (before the
 * inbox is trimmed) or right after the write that debited a transfer (before its delivery).
 */
import { DataDriverError, type MessageHandler } from '@datadriver/core';
import type { PlayerData, TestServer } from '../cluster/server.js';
import { Invariant } from './invariants.js';
import type { Monitor } from './monitor.js';
import type { SimData } from './player-data.js';
import { crash } from './server-ends.js';
import type { SenderPool, SimMessage, SimPlayer, World } from './world.js';

/**
 * The game's handler: the body's coins, and the message's id in `received`, so that every
 * committed copy shows each message's effect with its id (player-data.ts's ledger).
 */
export const applyMessage: MessageHandler<PlayerData> = (profile, message) => {
  const data = profile.data as SimData;
  const body = message.body as { coins: number };
  data.coins += body.coins;
  data.received = [...(data.received ?? []), message.id];
};

/** The sender processes of a run: one lives at a time; a crashed one is replaced at its next use. */
export class Senders implements SenderPool {
  #current: TestServer | undefined;
  #count = 0;

  get live(): TestServer | undefined {
    return this.#current;
  }

  /** The live sender, started if none lives. */
  async use(world: World): Promise<TestServer> {
    if (this.#current) return this.#current;
    this.#count += 1;
    const label = `W${this.#count}`;
    // A process that holds nothing: no handoff (it nudges straight on the bus), no onMessage.
    this.#current = await world.cluster.server(label, {
      handoff: false,
      lockTtlSeconds: world.config.lockTtlSeconds,
      lockSkewSeconds: world.config.lockSkewSeconds,
      autosaveSeconds: world.config.autosaveSeconds,
      lockWaitSeconds: world.config.lockWaitSeconds,
      createId: () => `${world.cluster.namespace}-${label}`,
    });
    world.note('a sender process starts', label);
    return this.#current;
  }

  /** The live sender crashes: its sends in flight never resolve. */
  crash(world: World): void {
    const sender = this.#current;
    if (!sender) return;
    this.#current = undefined;
    sender.crash();
    void sender.stop();
    world.note('CRASH (a sender process)', sender.label);
  }
}

type MessageAction =
  | 'grant'
  | 'burst'
  | 'resend'
  | 'transfer'
  | 'sender-fail'
  | 'sender-lose-response'
  | 'sender-crash'
  | 'crash-after-apply'
  | 'crash-after-debit';

const WEIGHTS: Readonly<Record<MessageAction, number>> = {
  // A burst sends three on average: the two together send about what grant's 10 did alone.
  grant: 7,
  burst: 1,
  resend: 5,
  transfer: 10,
  'sender-fail': 2,
  'sender-lose-response': 3,
  'sender-crash': 2,
  'crash-after-apply': 1,
  'crash-after-debit': 1,
};

/** How often a step of a message run also plays a message action. */
const MESSAGE_STEP_CHANCE = 0.5;

/** One step's message action, if the run has messages and its stream draws one. */
export async function messageStep(world: World, monitor: Monitor): Promise<void> {
  const random = world.random.messages;
  if (!world.config.messages || !random.chance(MESSAGE_STEP_CHANCE)) return;
  const action = random.weighted(WEIGHTS);
  monitor.count(`message.${action}`);
  switch (action) {
    case 'grant':
      return grant(world, monitor, newGrant(world));
    case 'burst':
      return burst(world, monitor);
    case 'resend': {
      const grants = [...world.messages.values()].filter((message) => message.kind === 'grant');
      if (grants.length > 0) return grant(world, monitor, random.pick(grants));
      return;
    }
    case 'transfer':
      return transfer(world, monitor);
    case 'sender-fail':
    case 'sender-lose-response': {
      const sender = await world.senders.use(world);
      const times = random.int(1, 2);
      const kind = action === 'sender-fail' ? 'fail' : 'lose-response';
      sender.store.faults.inject({ kind, operation: 'update', times });
      world.note(
        `fault: the sender's next ${times} writes ${kind === 'fail' ? 'fail' : 'lose their response'}`,
        sender.label,
      );
      return;
    }
    case 'sender-crash': {
      // Mid-send when one is in flight: its write may land, unanswered.
      const ms = random.int(0, 2 * world.config.latency.storeMs);
      world.clock.schedule(ms, () => world.senders.crash(world));
      return;
    }
    case 'crash-after-apply':
    case 'crash-after-debit': {
      const server = random.pick(world.servers);
      if (!server.live || world.armedCrash) return;
      world.armedCrash = {
        server,
        after: action === 'crash-after-apply' ? 'apply' : 'debit',
        fire: () => fireArmedCrash(world, monitor),
      };
      world.note(
        `fault: crashes right after its next write that ${action === 'crash-after-apply' ? 'applies messages' : 'debits a transfer'}`,
        server.label,
      );
      return;
    }
  }
}

function newGrant(world: World, to = world.random.messages.pick(world.players).id): SimMessage {
  const random = world.random.messages;
  const message: SimMessage = {
    id: `G${world.messages.size + 1}`,
    kind: 'grant',
    to,
    amount: random.int(1, 20),
    told: undefined,
  };
  world.messages.set(message.id, message);
  return message;
}

/**
 * The sender fires 2 to 4 grants to one player at once (several players gifting one streamer):
 * they overlap, so its driver sends them in one inbox write or two; now and then one id twice
 * in the burst (a provider's retry racing the first call). A fault armed on the sender's writes
 * then hits a whole batch.
 */
async function burst(world: World, monitor: Monitor): Promise<void> {
  const random = world.random.messages;
  const to = random.pick(world.players).id;
  const sends: SimMessage[] = [];
  for (let count = random.int(2, 4); sends.length < count; ) {
    sends.push(sends.length > 0 && random.chance(0.25) ? random.pick(sends) : newGrant(world, to));
  }
  // Each call returns once its send started, not resolved: the sends overlap in flight.
  for (const message of sends) await grant(world, monitor, message);
}

/** The sender sends `message` (again: a provider's retry), and learns what became of it. */
async function grant(world: World, monitor: Monitor, message: SimMessage): Promise<void> {
  const sender = await world.senders.use(world);
  const before = receivedIn(world, message.to).includes(message.id);
  world.note(
    `sends grant ${message.id}: ${message.amount} coins to ${message.to}`,
    sender.label,
    message.to,
  );
  sender.driver.send(message.to, { coins: message.amount }, { id: message.id }).then(
    (result) => {
      message.told ??= result.outcome;
      monitor.flow(result.outcome === 'queued' ? 'message-queued' : 'message-duplicate');
      world.note(`grant ${message.id}: ${result.outcome}`, sender.label, message.to);
    },
    (error: unknown) => {
      if (!DataDriverError.isInstance(error)) {
        monitor.report({
          invariant: Invariant.UnexpectedError,
          message: `a send failed with ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        });
        return;
      }
      world.note(`grant ${message.id} failed: ${error.code}`, sender.label, message.to);
      if (!before && receivedIn(world, message.to).includes(message.id)) {
        monitor.flow('send-response-lost');
      }
    },
  );
}

/** The ids `key`'s inbox holds now, as the store has it: pending, and remembered as received. */
function receivedIn(world: World, key: string): string[] {
  const inbox = world.backend.store.peek(world.inboxKey(key)) as
    | { pending?: Array<{ id?: unknown }>; done?: Array<[unknown, unknown]> }
    | undefined;
  const ids = [
    ...(inbox?.pending ?? []).map((entry) => entry.id),
    ...(inbox?.done ?? []).map((receipt) => receipt[0]),
  ];
  return ids.filter((id): id is string => typeof id === 'string');
}

/** A player's holder takes coins off them and sends them to another player. */
function transfer(world: World, monitor: Monitor): void {
  const random = world.random.messages;
  const senders = world.players.filter((player) => active(player) !== undefined);
  if (senders.length === 0) return;
  const from = random.pick(senders);
  const profile = active(from)!;
  const to = random.pick(world.players.filter((player) => player !== from));
  const terms: SimMessage = {
    id: `T${world.messages.size + 1}`,
    kind: 'transfer',
    from: from.id,
    to: to.id,
    amount: random.int(1, 10),
    told: undefined,
  };
  try {
    profile.send(to.id, { coins: terms.amount }, { id: terms.id });
  } catch (error) {
    if (!DataDriverError.isInstance(error)) throw error;
    world.note(`transfer ${terms.id} refused: ${error.code}`, from.current?.label, from.id);
    return;
  }
  // The debit, in the same write as the outbox entry.
  world.messages.set(terms.id, terms);
  const data = profile.data;
  data.coins -= terms.amount;
  data.sent = [...(data.sent ?? []), terms.id];
  world.note(
    `transfer ${terms.id}: ${from.id} sends ${to.id} ${terms.amount} coins`,
    from.current?.label,
    from.id,
  );
  if (random.chance(0.5)) {
    profile.save().catch((error: unknown) => {
      if (DataDriverError.isInstance(error)) return;
      monitor.report({
        invariant: Invariant.UnexpectedError,
        message: `a save failed with ${String(error)}`,
      });
    });
  }
}

function active(player: SimPlayer) {
  if (!player.current || player.trading) return undefined;
  return player.current.profile(player.id);
}

/**
 * The server armed by `crash-after-*` wrote what it was armed for: it crashes at once, before
 * the write's response reaches it (so before the trim of what it applied, or before the
 * delivery of what it debited).
 */
function fireArmedCrash(world: World, monitor: Monitor): void {
  const armed = world.armedCrash;
  if (!armed) return;
  world.armedCrash = undefined;
  world.clock.schedule(0, () => {
    if (!armed.server.live) return;
    crash(world, armed.server, monitor);
    if (!armed.server.live) {
      monitor.flow(armed.after === 'apply' ? 'crash-after-apply' : 'crash-after-debit');
    }
  });
}
