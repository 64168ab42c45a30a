/**
 * `pnpm colyseus`: a redis-server on loopback (through tools/backends, unless REDIS_URL is set),
 * two Colyseus game processes on ports 2567 and 2568, and one player who earns coins on the
 * first, moves to a room on the second while still connected, drops and reconnects, and is
 * carried over when that process crashes. The two processes then stay up for you to play;
 * Ctrl-C stops them (each releases its profiles), then Redis.
 *
 * `--scale 0.2` runs the default timings five times faster (the crash takeover in 2 to 3 s);
 * `--port 3000` puts the processes on 3000 and 3001.
 */
import { startRedis } from '@datadriver/backends';
import { ColyseusProcess } from './colyseus-process.js';
import { earn, joinRoom, leftWith, reconnect } from './player.js';

const argv = process.argv.slice(2);
const option = (name: string) => argv[argv.indexOf(`--${name}`) + 1];
const scale = argv.includes('--scale') ? Number(option('scale')) : 1;
const firstPort = argv.includes('--port') ? Number(option('port')) : 2567;
const ports = [firstPort, firstPort + 1] as const;
const user = `player-${process.pid}`;
const step = (text: string) => console.log(`\n▶ ${text}`);

const redis = await startRedis({ ownSignals: true });
const servers: ColyseusProcess[] = [];
const start = (port: number) =>
  ColyseusProcess.start({ port, redisUrl: redis.url, scale, echo: true, detached: true });

let stopping: Promise<void> | undefined;
function stop(): Promise<void> {
  stopping ??= (async () => {
    console.log('\nstopping the game processes (each releases its profiles), then Redis');
    await Promise.all(servers.map((server) => server.stop('SIGTERM')));
    await redis.stop();
    console.log('stopped');
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stop().then(() => process.exit(0)));
}

try {
  servers.push(await start(ports[0]), await start(ports[1]));
  const [a, b] = servers as [ColyseusProcess, ColyseusProcess];
  console.log(`\nRedis at ${redis.url}; game processes ${a.processId} and ${b.processId}`);

  step(`${user} joins a coin room on ${a.url} and earns 3 × 5 coins`);
  const onA = await joinRoom(a.url, user);
  for (let n = 0; n < 3; n += 1) await earn(onA.room, 5);
  console.log(`  loaded with ${onA.coins} coins in ${onA.waitedMs.toFixed(0)} ms; now 15`);

  step(`still connected there, ${user} joins a room on ${b.url}`);
  const kicked = leftWith(onA.room);
  const onB = await joinRoom(b.url, user);
  const kick = await kicked;
  console.log(`  the room on A closed with ${kick.code}: "${kick.reason}"`);
  console.log(
    `  loaded on B with ${onB.coins} coins: the load waited ${onB.loadMs.toFixed(1)} ms for ` +
      `A's release (the whole join took ${onB.waitedMs.toFixed(0)} ms)`,
  );

  step('the connection to B drops; the room holds the seat and the player reconnects');
  await earn(onB.room, 10);
  const token = onB.room.reconnectionToken;
  const printedBefore = b.output().length;
  onB.room.connection.close();
  // Once B has noticed the drop and holds the seat (it says so): sooner, B would refuse the
  // token and print "reconnection token invalid or expired" before the retry got in.
  await b.waitForOutput(new RegExp(`${user} dropped: seat held`), printedBefore);
  const back = await reconnect(b.url, token);
  console.log(`  reconnected with the same profile: ${await earn(back, 1)} coins`);

  step(`B crashes (SIGKILL); ${user} joins a room on A again`);
  await b.stop('SIGKILL');
  const crashedAt = performance.now();
  const after = await joinRoom(a.url, user);
  console.log(
    `  taken over ${((performance.now() - crashedAt) / 1000).toFixed(1)} s after the crash ` +
      `(default timings: 10 to 15 s, times ${scale}), with ${after.coins} coins: B's last save ` +
      '(what B earned after it was lost with the crash)',
  );
  await after.room.leave();

  servers[1] = await start(ports[1]);
  console.log(
    `\nBoth processes are up: ${servers.map((s) => s.url).join(' and ')} (room "coins", ` +
      "join option { user }, message 'earn'). Ctrl-C stops them.",
  );
} catch (error) {
  console.error(error);
  await stop();
  process.exit(1);
}
