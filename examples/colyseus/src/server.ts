/**
 * One game process: `REDIS_URL=... node dist/server.js --port 2567 [--scale 1]`. Colyseus's own
 * Redis presence and driver make the processes one deployment; a room is created on the process
 * the client asks, and its `publicAddress` (`--public-address`) sends the client's socket there. SIGTERM or SIGINT shuts
 * down gracefully: the rooms let their clients go and every profile is released.
 */
import { matchMaker, Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence as ColyseusRedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { stopWithParent } from '@datadriver/backends';
import { Handoff, scaleTimings } from '@datadriver/core';
import { CoinRoom } from './coin-room.js';
import { logger, messenger, playerData, presence, profiles, redis, settings } from './profiles.js';

const address = `127.0.0.1:${settings.port}`;
const gameServer = new Server({
  transport: new WebSocketTransport(),
  presence: new ColyseusRedisPresence(settings.redisUrl),
  driver: new RedisDriver(settings.redisUrl),
  publicAddress: settings.publicAddress,
  selectProcessIdToCreateRoom: async () => matchMaker.processId,
  greet: false,
});
// Made before the profiles attach (they wait for this process id), so --scale applies to it.
const handoff = Handoff.shared(matchMaker.processId, {
  messenger,
  presence,
  logger,
  timings: scaleTimings(settings.scale),
});
gameServer.define('coins', CoinRoom);
// Started by the runner (its lifeline closes when the runner dies): shut down as SIGTERM does.
stopWithParent();

// Colyseus's shutdown first lets every client go, and a player who has left every room here is
// released by the driver's leave path, before onShutdown runs close(): count both.
const releasedInShutdown = new Set<string>();
let shuttingDown = false;
gameServer.onBeforeShutdown(() => {
  shuttingDown = true;
});
playerData.on((event) => {
  if (shuttingDown && event.type === 'profile.released') releasedInShutdown.add(event.key);
});

gameServer.onShutdown(async () => {
  const result = await playerData.close({ deadlineSeconds: 10 });
  for (const key of result.released) releasedInShutdown.add(key);
  await handoff.destroy();
  await messenger.close();
  await redis.quit();
  // The tests and the runner read this line.
  console.log(
    `colyseus ${matchMaker.processId} stopped: released ${releasedInShutdown.size}, unreleased ${result.unreleased.length}`,
  );
});

await gameServer.listen(settings.port, '127.0.0.1');
await profiles.ready;
// The runner and the tests wait for this exact line.
console.log(`colyseus ${matchMaker.processId} listening on ws://${address}`);
