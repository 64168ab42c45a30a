/**
 * A kick reports the player removing at once (the Host contract: the release starts), and sends
 * its WebSocket frames (the message, the close) only after that release landed, so they never
 * compete with the write the player's next server waits for. A real WebSocket server and
 * client in this process, the server's host and release watch, and a driver on memory ports
 * whose store stalls on demand.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataDriver, type DataDriverEvent, type Logger } from '@datadriver/core';
import { FaultyStore, MemoryStore } from '@datadriver/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type PlayerData, play } from '../src/game.js';
import { FRAMES_WAIT_MS, ReleaseWatch } from '../src/release-watch.js';
import { KICK_CLOSE_CODE, type SocketPlayer, send, WebSocketHost } from '../src/websocket-host.js';

interface Served {
  readonly url: string;
  readonly host: WebSocketHost;
  readonly driver: DataDriver<PlayerData>;
  readonly store: FaultyStore;
  readonly events: { type: DataDriverEvent['type']; at: number }[];
  readonly removedAt: Map<string, number>;
  close(): Promise<void>;
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A raw client: every message it got, with when, and how the connection closed. */
class Client {
  readonly inbox: { type: string; message?: string; at: number }[] = [];
  readonly closed: Promise<number>;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      this.inbox.push({
        ...(JSON.parse(raw.toString()) as { type: string }),
        at: performance.now(),
      });
    });
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
  }

  static connect(url: string, user: string): Promise<Client> {
    const socket = new WebSocket(`${url}/play?user=${user}`);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Client(socket)));
      socket.once('error', reject);
    });
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message of `type`, waiting up to `ms`. */
  async next(type: string, ms = 10_000): Promise<{ type: string; message?: string; at: number }> {
    const deadline = performance.now() + ms;
    for (;;) {
      const found = this.inbox.find((message) => message.type === type);
      if (found) return found;
      if (performance.now() > deadline) throw new Error(`no ${type} within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  types(): string[] {
    return this.inbox.map((message) => message.type);
  }
}

const running: Served[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.close()));
});

/** A game server's host and driver as server.ts wires them, on memory ports. */
async function serve(): Promise<Served> {
  const store = new FaultyStore(new MemoryStore());
  const driver = new DataDriver<PlayerData>({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store,
    logger: silent,
    jobId: 'kick-test',
    handoff: false,
  });
  const releases = new ReleaseWatch(driver);
  const host = new WebSocketHost('kick-test', {
    kickFramesAfter: (player) => releases.released(player.id),
  });
  const events: Served['events'] = [];
  driver.on((event) => events.push({ type: event.type, at: performance.now() }));
  const removedAt = new Map<string, number>();
  host.onPlayerRemoving((player) => removedAt.set(player.id, performance.now()));
  driver.attach(host, {
    onLoad: (profile, player) => {
      send(player, { type: 'loaded', coins: profile.data.coins, server: 'kick-test' });
      play(driver, player);
    },
  });
  const http: Server = createServer();
  const sockets = new WebSocketServer({ server: http, path: '/play' });
  sockets.on('connection', (socket, request) => {
    host.connect(socket, new URL(request.url ?? '', 'http://localhost').searchParams.get('user')!);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const served: Served = {
    url: `ws://127.0.0.1:${port}`,
    host,
    driver,
    store,
    events,
    removedAt,
    close: async () => {
      await driver.close();
      sockets.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
  running.push(served);
  return served;
}

function playerOf(host: WebSocketHost, id: string): SocketPlayer {
  const player = [...host.players()].find((each) => each.id === id);
  if (!player) throw new Error(`${id} is not connected`);
  return player;
}

/** A client whose profile loaded, with `coins` earned on it. */
async function loadedPlayer(served: Served, user: string, coins = 0): Promise<Client> {
  const client = await Client.connect(served.url, user);
  await client.next('loaded');
  if (coins > 0) {
    client.send({ type: 'earn', coins });
    await client.next('state');
  }
  return client;
}

/** Resolves with when the client got its `kicked` message. */
async function kickedAt(client: Client): Promise<number> {
  const message = await client.next('kicked');
  expect(message.message).toBe('joined elsewhere');
  return message.at;
}

const at = (served: Served, type: DataDriverEvent['type']) =>
  served.events.find((event) => event.type === type)?.at;

describe("a kick's frames", () => {
  it('go out after the release landed, while the player is reported removing at once', async () => {
    const served = await serve();
    const client = await loadedPlayer(served, 'p1', 5);
    const stall = served.store.faults.inject({ kind: 'stall', operation: 'update' });
    const kicked = kickedAt(client);
    const kickAt = performance.now();
    served.host.kick(playerOf(served.host, 'p1'), 'joined elsewhere');
    expect(served.removedAt.get('p1')).toBeGreaterThanOrEqual(kickAt); // at once, synchronously
    expect(served.host.count).toBe(0);
    // The release is on the wire (stalled here): the client has heard nothing yet.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(at(served, 'profile.released')).toBeUndefined();
    expect(client.types()).toEqual(['loaded', 'state']);
    stall.remove();
    const heardAt = await kicked;
    expect(heardAt).toBeGreaterThan(at(served, 'profile.released')!);
    expect(await client.closed).toBe(KICK_CLOSE_CODE);
    expect((await served.store.get('PlayerData/p1'))?.data).toEqual({ coins: 5 });
  });

  it('leave the game refusing what the client sends meanwhile: an earn during the release is not taken', async () => {
    const served = await serve();
    const client = await loadedPlayer(served, 'p2', 5);
    const stall = served.store.faults.inject({ kind: 'stall', operation: 'update' });
    served.host.kick(playerOf(served.host, 'p2'), 'joined elsewhere');
    client.send({ type: 'earn', coins: 100 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    stall.remove();
    await kickedAt(client);
    await client.closed;
    expect(client.types()).toEqual(['loaded', 'state', 'error', 'kicked']);
    expect(client.inbox[2]).toMatchObject({ message: 'profile not loaded yet' });
    expect((await served.store.get('PlayerData/p2'))?.data).toEqual({ coins: 5 });
  });

  it(`go out after at most ${FRAMES_WAIT_MS} ms when the release stalls`, async () => {
    const served = await serve();
    const client = await loadedPlayer(served, 'p3');
    const stall = served.store.faults.inject({ kind: 'stall', operation: 'update' });
    const kickAt = performance.now();
    const kicked = kickedAt(client);
    served.host.kick(playerOf(served.host, 'p3'), 'joined elsewhere');
    const waited = (await kicked) - kickAt;
    expect(waited).toBeGreaterThanOrEqual(FRAMES_WAIT_MS - 1);
    expect(waited).toBeLessThan(FRAMES_WAIT_MS + 1_000);
    expect(at(served, 'profile.released')).toBeUndefined();
    stall.remove();
  });

  it('go out at once when no profile is held here (a kick of a player whose load failed)', async () => {
    const served = await serve();
    const stall = served.store.faults.inject({ kind: 'stall', operation: 'update' });
    const client = await Client.connect(served.url, 'p4'); // its load stalls: no profile
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.driver.profile('p4')).toBeUndefined();
    const kickAt = performance.now();
    const kicked = kickedAt(client);
    served.host.kick(playerOf(served.host, 'p4'), 'joined elsewhere');
    expect((await kicked) - kickAt).toBeLessThan(FRAMES_WAIT_MS / 2);
    stall.remove();
  });
});
