/**
 * Messages sent to a player's profile (a webhook's grant, a friend's gift) on a real Colyseus
 * server and real colyseus.js clients: the options' onMessage applies them, and each room the
 * player is in hears of it through onMessageApplied once it is saved. Its own file: the world
 * runs with an onMessage.
 */
import { DataDriver, type ProfileMessage } from '@datadriver/core';
import type { Room } from 'colyseus.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerData } from './support/arena.js';
import {
  ColyseusWorld,
  driverOptions,
  earn,
  joinArena,
  nextMessage,
  type RedisPorts,
  redisPorts,
  until,
} from './support/colyseus-world.js';

const prefix = `ddtest:colyseus-messages:${process.pid}:`;
let colyseus: ColyseusWorld;
/** A webhook's process: the same store, holding nothing. */
let webhookPorts: RedisPorts;
let webhook: DataDriver<PlayerData>;
let next = 0;
function user(label: string): string {
  next += 1;
  return `${label}-${next}`;
}

interface Gift {
  readonly id: string;
  readonly roomId: string;
  readonly coins: number;
}

/** Every `gift` `room` hears from now on. */
function giftsOf(room: Room): Gift[] {
  const heard: Gift[] = [];
  room.onMessage('gift', (gift: Gift) => heard.push(gift));
  return heard;
}

beforeAll(async () => {
  colyseus = await ColyseusWorld.start(prefix, {
    onMessage: (profile, message: ProfileMessage) => {
      profile.data.coins += (message.body as { coins: number }).coins;
    },
  });
  webhookPorts = await redisPorts(prefix);
  webhook = new DataDriver<PlayerData>(driverOptions(webhookPorts));
});

afterAll(async () => {
  await webhook.close();
  await webhookPorts.close();
  await colyseus.stop();
});

describe("a room hearing of a message applied to its client's profile", () => {
  it('a grant sent from another process reaches a player in a room at once, applied once and saved before the room hears it', async () => {
    const id = user('online');
    const { room } = await joinArena(colyseus.client(), id);
    expect(await earn(room, 5)).toBe(5);
    const gift = nextMessage<Gift>(room, 'gift');
    expect(await webhook.send(id, { coins: 100 }, { id: `${id}-receipt` })).toEqual({
      outcome: 'queued',
    });
    expect(await gift).toEqual({ id: `${id}-receipt`, roomId: room.roomId, coins: 105 });
    // Saved before the room was told: the stored record has it, and the player is still here.
    expect((await colyseus.record(id)).data).toEqual({ coins: 105 });
    expect(await webhook.send(id, { coins: 100 }, { id: `${id}-receipt` })).toEqual({
      outcome: 'duplicate',
    });
    expect(await earn(room, 1)).toBe(106);
    await room.leave();
  });

  it('every room the player is in hears it once', async () => {
    const id = user('rooms');
    const client = colyseus.client();
    const first = await joinArena(client, id);
    const second = await joinArena(client, id);
    const heard = [giftsOf(first.room), giftsOf(second.room)];
    const both = Promise.all([
      nextMessage<Gift>(first.room, 'gift'),
      nextMessage<Gift>(second.room, 'gift'),
    ]);
    await webhook.send(id, { coins: 7 }, { id: `${id}-gift` });
    await both;
    // A later message, so that a second telling of the first would have come before it.
    const later = nextMessage<Gift>(second.room, 'gift');
    await webhook.send(id, { coins: 1 }, { id: `${id}-later` });
    await later;
    expect(heard[0]!.map((gift) => gift.id)).toEqual([`${id}-gift`, `${id}-later`]);
    expect(heard[1]!.map((gift) => gift.id)).toEqual([`${id}-gift`, `${id}-later`]);
    expect(heard[1]!.map((gift) => gift.coins)).toEqual([7, 8]);
    await first.room.leave();
    await second.room.leave();
  });

  it('a grant sent while the player was offline is applied at their join, and the room hears it once they joined', async () => {
    const id = user('offline');
    await webhook.send(id, { coins: 40 }, { id: `${id}-receipt` });
    const client = colyseus.client();
    const room = await client.create('arena', { user: id });
    const heard = giftsOf(room);
    const loaded = await nextMessage<{ coins: number }>(room, 'loaded');
    expect(loaded.coins).toBe(40);
    await until(() => heard.length > 0);
    expect(await earn(room, 0)).toBe(40);
    expect(heard).toEqual([{ id: `${id}-receipt`, roomId: room.roomId, coins: 40 }]);
    await room.leave();
  });

  it('a listener that throws is warned about, and the listeners after it still hear it', async () => {
    const id = user('throwing');
    const { room, roomId } = await joinArena(colyseus.client(), id);
    const serverRoom = await roomById(roomId);
    const offThrowing = colyseus.profiles.onMessageApplied(serverRoom, () => {
      throw new Error('a room bug');
    });
    const after: string[] = [];
    const offAfter = colyseus.profiles.onMessageApplied(serverRoom, (_client, message, profile) =>
      after.push(`${message.id}: ${profile.data.coins}`),
    );
    const gift = nextMessage<Gift>(room, 'gift');
    await webhook.send(id, { coins: 3 }, { id: `${id}-gift` });
    expect(await gift).toMatchObject({ coins: 3 });
    offThrowing();
    offAfter();
    expect(after).toEqual([`${id}-gift: 3`]);
    expect(colyseus.logger.lines.map((line) => line.message)).toContain(
      `a room's onMessageApplied listener threw on message ${id}-gift of ${id}: a room bug`,
    );
    await room.leave();
  });
});

/** The server-side room of `roomId` in this process. */
async function roomById(roomId: string) {
  const { matchMaker } = await import('@colyseus/core');
  const room = matchMaker.getLocalRoomById(roomId);
  if (!room) throw new Error(`no room ${roomId} here`);
  return room;
}
