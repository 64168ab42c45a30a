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
import type { JsonObject } from '../src/ports.js';
import { LoadReservation } from '../src/registry/reservation.js';
import { FLEET_KEY, handOverFleet } from './hand-over-fleet.js';
import { stored } from './helpers.js';

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

  it('a record too big for a reply (1 kB with the reply) is left out: B reads the store, three calls', async () => {
    const fleet = handOverFleet();
    const sent = editReplies(fleet, 'B', (reply) => reply as unknown as JsonObject);
    const { b, held } = await heldOnA(fleet);
    const bio = 'x'.repeat(900);
    Object.assign(held.data, { bio });
    const profile = await fleet.bed.clock.run(b.load('p1'));
    expect(fleet.since()).toEqual({ reads: 2, compareAndSets: 1 });
    expect(sent).toEqual([{ T: 'R', D: 'PlayerData', K: 'p1', S: expect.any(String) }]);
    expect(profile.data).toEqual({ coins: 7, bio });
    expect(fleet.of('load.loaded').at(-1)).toMatchObject({ reason: 'handed', waitedMs: 0 });
    expect(fleet.of('handoff.reply.received')[0]).not.toHaveProperty('record');
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

  it("a write between A's release and B's take costs B no data: its first save lands on the record stored now", async () => {
    const fleet = handOverFleet();
    const { store } = fleet.bed;
    editReplies(fleet, 'B', (reply) => {
      // Another writer (as a message's sender does) moves the version before the reply lands.
      const record = store.peek('PlayerData/p1') as JsonObject & { meta: JsonObject };
      store.put('PlayerData/p1', { ...record, meta: { ...record.meta, userIds: ['u1'] } });
      expect(store.versionOf('PlayerData/p1')).not.toBe(reply.V);
      return reply as unknown as JsonObject;
    });
    const { b } = await heldOnA(fleet);
    const profile = await fleet.bed.clock.run(b.load('p1'));
    expect(profile.data).toEqual({ coins: 7 });
    profile.data.coins = 8;
    fleet.since();
    await fleet.bed.clock.run(profile.save());
    // The compare-and-set on the reply's version misses, and runs again on the record it carried back.
    expect(fleet.since()).toEqual({ reads: 0, compareAndSets: 2 });
    expect(profile.active).toBe(true);
    expect(stored(store, 'p1')).toMatchObject({
      data: { coins: 8 },
      meta: { lock: { jobId: 'B', token: profile.lockToken } },
    });
  });
});

describe("a load's reservation and the records replies hand it", () => {
  const handed = (token: string, json = '{}') => ({ token, version: 'v1', json });

  it("keeps a record only for its own load's token, and a later one for another load displaces nothing", () => {
    const reservation = new LoadReservation('t-mine', 1, () => true);
    reservation.replied(handed('t-mine', 'real'));
    reservation.replied(handed('t-earlier', 'replayed'));
    reservation.replied(undefined);
    expect(reservation.takeHanded()).toEqual(handed('t-mine', 'real'));
    // Taken once: the attempt after that one starts from the store.
    expect(reservation.takeHanded()).toBeUndefined();
  });

  it('wakes its load on every reply, with a record or not', () => {
    const reservation = new LoadReservation('t-mine', 1, () => true);
    const wakes = vi.spyOn(reservation.reply, 'notify');
    reservation.replied(handed('t-other'));
    reservation.replied(undefined);
    reservation.replied(handed('t-mine'));
    expect(wakes).toHaveBeenCalledTimes(3);
  });
});
