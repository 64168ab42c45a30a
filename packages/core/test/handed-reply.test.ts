/**
 * The record a holder's signed reply hands to the joiner's load (`handOverLocks`): the load
 * takes its lock from it with no store call, and only from a reply that is signed, names that
 * very load, and holds a record locked for it; anything else is a plain reply, after which
 * the load reads the store. Store calls counted on the memory store as a remote store makes
 * them; exact on the virtual clock.
 */
import { describe, expect, it, vi } from 'vitest';
import { Signer } from '../src/handoff/signing.js';
import { type HandoffReply, replyMessage, topicOf } from '../src/handoff/wire.js';
import { ErrorCode, Handoff } from '../src/index.js';
import type { JsonObject } from '../src/ports.js';
import { LoadReservation } from '../src/registry/reservation.js';
import {
  FaultyMessenger,
  FaultyPresence,
  MemoryMessenger,
  MemoryPresence,
} from '../src/testing.js';
import { FLEET_KEY, handOverFleet } from './hand-over-fleet.js';
import { stored, testBed } from './helpers.js';

type Fleet = ReturnType<typeof handOverFleet>;
type Wire = HandoffReply & { S?: string; SH?: string };

/** Every reply published to server `jobId` is replaced by what `edit` makes of it, in order. */
function editReplies(
  fleet: Fleet,
  jobId: string,
  edit: (reply: Wire) => JsonObject | readonly JsonObject[],
) {
  const { messenger } = fleet;
  const publish = messenger.publish.bind(messenger);
  const sent: Wire[] = [];
  vi.spyOn(messenger, 'publish').mockImplementation(async (topic, message) => {
    if (topic !== topicOf(jobId) || message.T !== 'R') return publish(topic, message);
    sent.push(message as Wire);
    const edited = edit(message as Wire);
    for (const each of Array.isArray(edited) ? edited : [edited]) await publish(topic, each);
  });
  return sent;
}

/** A held p1 with 7 coins on A, and B of the same fleet. */
async function heldOnA(fleet: Fleet, bOptions?: Parameters<Fleet['server']>) {
  const a = fleet.server('A');
  const b = bOptions ? fleet.server(...bOptions) : fleet.server('B');
  const held = await fleet.bed.clock.run(a.load('p1'));
  held.data.coins = 7;
  fleet.since();
  return { a, b, held };
}

const signer = new Signer({ key: FLEET_KEY });

/** `reply` with record `json` in place of its own, signed again under the fleet key. */
function resigned(reply: Wire, json: string): JsonObject {
  const handed = { token: reply.H!, version: reply.V!, json };
  return signer.sign(replyMessage(reply.D, reply.K, handed)) as unknown as JsonObject;
}

describe("a hand-over reply's record", () => {
  it("carries exactly what A's release stored, its version and B's load token, signed: B takes it with no call", async () => {
    const fleet = handOverFleet();
    const sent = editReplies(fleet, 'B', (reply) => reply as unknown as JsonObject);
    const { b } = await heldOnA(fleet);
    const profile = await fleet.bed.clock.run(b.load('p1'));
    expect(fleet.since()).toEqual({ reads: 1, compareAndSets: 1 });
    expect(sent).toHaveLength(1);
    const [reply] = sent;
    expect(reply).toMatchObject({ T: 'R', D: 'PlayerData', K: 'p1', H: profile.lockToken });
    expect(reply?.J).toBe(fleet.bed.store.peekJson('PlayerData/p1'));
    expect(reply?.V).toBe(fleet.bed.store.versionOf('PlayerData/p1'));
    expect(signer.checkHandOver(reply!, reply?.SH)).toBe('valid');
    expect(profile.data).toEqual({ coins: 7 });
    expect(fleet.of('load.loaded').at(-1)).toMatchObject({ reason: 'handed', waitedMs: 0 });
    expect(fleet.of('handoff.reply.received')).toEqual([
      expect.objectContaining({ key: 'p1', jobId: 'B', record: true }),
    ]);
  });

  for (const [size, bio] of [
    ['too big for a message', 900],
    ['too big for a message once signed and escaped in the reply', 700],
  ] as const) {
    it(`a record ${size} is left out: B reads the store, three calls`, async () => {
      const fleet = handOverFleet();
      const sent = editReplies(fleet, 'B', (reply) => reply as unknown as JsonObject);
      const { b, held } = await heldOnA(fleet);
      Object.assign(held.data, { bio: 'x'.repeat(bio) });
      const profile = await fleet.bed.clock.run(b.load('p1'));
      expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
      expect(sent).toEqual([{ T: 'R', D: 'PlayerData', K: 'p1', S: expect.any(String) }]);
      expect(profile.data).toEqual({ coins: 7, bio: 'x'.repeat(bio) });
      expect(fleet.of('load.loaded').at(-1)).toMatchObject({ reason: 'handed', waitedMs: 0 });
      expect(fleet.of('handoff.reply.received')[0]).not.toHaveProperty('record');
    });
  }

  it('a version too long for a reply is left out with its record: B reads the store', async () => {
    const fleet = handOverFleet();
    const sent = editReplies(fleet, 'B', (reply) => reply as unknown as JsonObject);
    const { b } = await heldOnA(fleet);
    const store = fleet.stores.A!;
    const update = store.update.bind(store);
    vi.spyOn(store, 'update').mockImplementation(async (key, transform, options) => {
      const snapshot = await update(key, transform, options);
      return snapshot && { ...snapshot, version: 'v'.repeat(129) };
    });
    const profile = await fleet.bed.clock.run(b.load('p1'));
    expect(sent).toEqual([{ T: 'R', D: 'PlayerData', K: 'p1', S: expect.any(String) }]);
    expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
    expect(profile.data).toEqual({ coins: 7 });
  });

  it('two joiners at once: only the one the release handed the lock to gets the record', async () => {
    const fleet = handOverFleet();
    const replies: Array<[topic: string, reply: Wire]> = [];
    const { messenger } = fleet;
    const publish = messenger.publish.bind(messenger);
    vi.spyOn(messenger, 'publish').mockImplementation(async (topic, message) => {
      if (message.T === 'R') replies.push([topic, message as Wire]);
      return publish(topic, message);
    });
    const { b } = await heldOnA(fleet);
    const c = fleet.server('C');
    const { clock } = fleet.bed;
    const [onB, onC] = await clock.run(Promise.all([b.load('p1'), c.load('p1')]));
    expect(onB.data).toEqual({ coins: 7 });
    // A handed its lock to B; C's ask, which named A's lock too, got a plain reply.
    const [toB, toC] = [topicOf('B'), topicOf('C')].map((topic) =>
      replies.filter(([to]) => to === topic).map(([, reply]) => reply),
    );
    expect(toB).toEqual([expect.objectContaining({ H: onB.lockToken })]);
    expect(toC?.[0]).not.toHaveProperty('J');
    expect(onC.data).toEqual(onB.data);
  });

  it('a record changed on the bus fails its signature: B reads the store and loads what A wrote', async () => {
    const fleet = handOverFleet();
    editReplies(fleet, 'B', (reply) => ({
      ...reply,
      J: reply.J!.replace('"coins":7', '"coins":7000'),
    }));
    const { b } = await heldOnA(fleet);
    const profile = await fleet.bed.clock.run(b.load('p1'));
    expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
    expect(profile.data).toEqual({ coins: 7 });
    expect(fleet.of('load.loaded').at(-1)).toMatchObject({ reason: 'handed', waitedMs: 0 });
    // The signature failed: the reply arrived as a plain one.
    expect(fleet.of('handoff.reply.received')[0]).not.toHaveProperty('record');
  });

  it('a record with no signature is not taken, even by a server that accepts unsigned messages', async () => {
    const fleet = handOverFleet();
    editReplies(fleet, 'B', ({ S: _s, SH: _sh, ...reply }) => ({
      ...reply,
      J: reply.J!.replace('"coins":7', '"coins":7000'),
    }));
    const b = ['B', { handOverLocks: true }, { key: FLEET_KEY, acceptUnsigned: true }] as const;
    const { b: joiner } = await heldOnA(fleet, [...b]);
    const profile = await fleet.bed.clock.run(joiner.load('p1'));
    expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
    expect(profile.data).toEqual({ coins: 7 });
  });

  it("a signed record whose lock is not the load's own is not taken: B reads the store", async () => {
    for (const lock of [
      (json: string, token: string) => json.replace(token, 'another-token'),
      (json: string) => json.replace('"jobId":"B"', '"jobId":"C"'),
      (json: string) => json.replace(/"lock":\{[^}]*\},?/, ''),
    ]) {
      const fleet = handOverFleet();
      editReplies(fleet, 'B', (reply) =>
        resigned(reply, lock(reply.J!, reply.H!).replace('"coins":7', '"coins":7000')),
      );
      const { b } = await heldOnA(fleet);
      const profile = await fleet.bed.clock.run(b.load('p1'));
      expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
      expect(profile.data).toEqual({ coins: 7 });
      expect(stored(fleet.bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
    }
  });

  it('a signed record that is not a record (not JSON, an array, no lock, no meta.version) is not taken', async () => {
    const lockOf = (json: string) => /"lock":\{[^}]*\}/.exec(json)?.[0];
    for (const json of [
      () => '{"data":',
      () => '[]',
      () => '{"data":{"coins":7000},"meta":{}}',
      // Locked for B's load, but not a record core reads: the take's own check refuses it.
      (real: string) => `{"data":{"coins":7000},"meta":{${lockOf(real)}}}`,
    ]) {
      const fleet = handOverFleet();
      editReplies(fleet, 'B', (reply) => resigned(reply, json(reply.J!)));
      const { b } = await heldOnA(fleet);
      const profile = await fleet.bed.clock.run(b.load('p1'));
      expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
      expect(profile.data).toEqual({ coins: 7 });
    }
  });

  it("a reply replayed from an earlier hand-over reaches no later load: B's next load reads what A saved since", async () => {
    const fleet = handOverFleet();
    let first: Wire | undefined;
    let replay = false;
    editReplies(fleet, 'B', (reply) => {
      first ??= reply;
      // The later hand-over's own reply is lost: only the replayed one arrives.
      return (replay ? first : reply) as unknown as JsonObject;
    });
    const { a, b } = await heldOnA(fleet);
    const { clock } = fleet.bed;
    const onB = await clock.run(b.load('p1'));
    expect(onB.data).toEqual({ coins: 7 });
    const backOnA = await clock.run(a.load('p1'));
    backOnA.data.coins = 9;
    replay = true;
    fleet.since();
    const again = await clock.run(b.load('p1'));
    expect(first?.H).toBe(onB.lockToken);
    expect(again.lockToken).not.toBe(onB.lockToken);
    // Woken by the replay, B read the store: A's release had already written B's new lock.
    expect(again.data).toEqual({ coins: 9 });
    expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
    expect(stored(fleet.bed.store, 'p1')?.meta.lock?.token).toBe(again.lockToken);
  });

  it('a reply a beat late is confirmed by a read: B does not land on a lock another server took meanwhile', async () => {
    const bed = testBed();
    const [bus, presence] = [new MemoryMessenger(), new MemoryPresence(bed.clock)];
    const server = (jobId: string) => {
      const messenger = new FaultyMessenger(bus, { scheduler: bed.clock });
      const faultyPresence = new FaultyPresence(presence, { scheduler: bed.clock });
      const signing = { key: FLEET_KEY };
      const ports = { messenger, presence: faultyPresence, scheduler: bed.clock, signing };
      const handoff = new Handoff({ jobId, ...ports });
      const options = { handoff, handOverLocks: true, lockWaitSeconds: 120 };
      return { ...bed.server(jobId, options), messenger, presence: faultyPresence };
    };
    const [a, b, c] = [server('A'), server('B'), server('C')];
    const held = await bed.clock.run(a.driver.load('p1'));
    held.data.coins = 7;
    // B hears every reply 20 s late, sends nothing after its first request, stops beating, and
    // its store calls after the first fail until C is done: only the late reply can end its load.
    const forever = Number.POSITIVE_INFINITY;
    const bStore = b.store.faults.inject({
      kind: 'fail',
      operation: 'update',
      skip: 1,
      times: forever,
    });
    b.messenger.faults.inject({
      kind: 'delay',
      operation: 'deliver',
      key: topicOf('B'),
      ms: 20_000,
      times: forever,
    });
    b.messenger.faults.inject({ kind: 'drop', operation: 'publish', skip: 1, times: forever });
    b.presence.faults.inject({ kind: 'fail', operation: 'set', times: forever });
    const loading = b.driver.load('p1').catch((error: unknown) => error);
    await bed.clock.advance(1_000);
    // A handed B the lock; C then reads B's presence absent twice a beat apart, and takes it.
    expect(stored(bed.store, 'p1')?.meta.lock?.jobId).toBe('B');
    const onC = await bed.clock.run(c.driver.load('p1'));
    onC.data.coins = 100;
    await bed.clock.run(onC.save());
    bStore.remove();
    const outcome = await bed.clock.run(loading);
    expect(outcome).toMatchObject({ code: ErrorCode.LockLost });
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 100 },
      meta: { lock: { jobId: 'C' } },
    });
    expect(onC.active).toBe(true);
    expect(b.driver.profile('p1')).toBeUndefined();
  });
});

describe("a load's reservation and the records replies hand it", () => {
  /** A record locked for load `token` on B, as its JSON; `coins` tells two apart. */
  const locked = (token: string, coins: number) =>
    JSON.stringify({
      data: { coins },
      meta: { version: 2, lock: { jobId: 'B', token, time: 1, presence: true } },
    });
  const handed = (token: string, coins = 1) => ({
    token,
    version: 'v1',
    json: locked(token, coins),
  });
  const asked = () => {
    const reservation = new LoadReservation('t-mine', 1, () => true);
    reservation.askedForHandOver(40);
    return reservation;
  };

  it("keeps a record only for its own load's token, and a later one for another load displaces nothing", () => {
    const reservation = asked();
    expect(reservation.replied(handed('t-mine', 7))).toBe(true);
    expect(reservation.replied(handed('t-earlier', 3))).toBe(false);
    expect(reservation.replied(undefined)).toBe(false);
    expect(reservation.takeHanded('B')).toEqual({
      snapshot: { record: JSON.parse(locked('t-mine', 7)), version: 'v1' },
      since: 40,
    });
    // Taken once: the attempt after that one starts from the store.
    expect(reservation.takeHanded('B')).toBeUndefined();
  });

  it('dates a record from the first ask, and gives none that is not locked for it here', () => {
    const reservation = asked();
    reservation.askedForHandOver(45);
    reservation.replied(handed('t-mine'));
    expect(reservation.takeHanded('B')?.since).toBe(40);
    reservation.replied(handed('t-mine'));
    expect(reservation.takeHanded('C')).toBeUndefined();
    expect(reservation.mayLeaveLock).toBe(true);
  });

  it('gives none to a load that never asked for a hand-over', () => {
    const reservation = new LoadReservation('t-mine', 1, () => true);
    reservation.replied(handed('t-mine'));
    expect(reservation.takeHanded('B')).toBeUndefined();
  });

  it('wakes its load on every reply, with a record or not', () => {
    const reservation = asked();
    const wakes = vi.spyOn(reservation.reply, 'notify');
    reservation.replied(handed('t-other'));
    reservation.replied(undefined);
    reservation.replied(handed('t-mine'));
    expect(wakes).toHaveBeenCalledTimes(3);
  });
});
