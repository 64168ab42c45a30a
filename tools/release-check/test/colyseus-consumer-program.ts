/**
 * The program a Colyseus user would write after `npm install @datadriver/core
 * @datadriver/redis @datadriver/colyseus @colyseus/core @colyseus/ws-transport ioredis`: a
 * Colyseus server whose room awaits the profile in onJoin, joined by a real colyseus.js client.
 */
export const COLYSEUS_CONSUMER_PROGRAM = `
import { type Client, Room, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { ColyseusProfiles, KICK_CLOSE_CODE } from '@datadriver/colyseus';
import { DataDriver } from '@datadriver/core';
import { RECOMMENDED_REDIS_OPTIONS, RedisMessenger, RedisPresence, RedisStore } from '@datadriver/redis';
import { Client as ColyseusClient } from 'colyseus.js';
import { Redis } from 'ioredis';

interface PlayerData {
  coins: number;
}

const client = new Redis(process.env.REDIS_URL ?? '', RECOMMENDED_REDIS_OPTIONS);
const prefix = \`packed-colyseus-\${process.pid}:\`;
const messenger = new RedisMessenger({ client, prefix });
const playerData = new DataDriver<PlayerData>({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new RedisStore({ client, prefix }),
  messenger,
  presence: new RedisPresence({ client, prefix }),
});
const profiles = new ColyseusProfiles(playerData);

class Arena extends Room {
  override onAuth(_client: Client, options: { user: string }) {
    return { userId: options.user };
  }

  override async onJoin(client: Client) {
    const profile = await profiles.join(this, client);
    profile.data.coins += 3;
    client.send('coins', profile.data.coins);
  }
}

const server = new Server({ transport: new WebSocketTransport(), gracefullyShutdown: false, greet: false });
server.define('arena', Arena);
await server.listen(Number(process.env.PORT), '127.0.0.1');
await profiles.ready;

const player = new ColyseusClient(\`ws://127.0.0.1:\${process.env.PORT}\`);
const room = await player.joinOrCreate('arena', { user: 'user-1' });
const coins = await new Promise<number>((resolve) => room.onMessage('coins', resolve));
await room.leave();
await new Promise((resolve) => setTimeout(resolve, 300)); // the leave save
const result = await playerData.close();
await server.gracefullyShutdown(false);
await messenger.close();
client.disconnect();
console.log(JSON.stringify({ coins, jobIsProcess: profiles.host.jobId.length > 0, kickCode: KICK_CLOSE_CODE, unreleased: result.unreleased }));
process.exit(0);
`;
