/**
 * An example game server: `node dist/server.js --port 7001 --job server-a`. Players connect to
 * ws://host:port/play?user=<id>; `POST /grant` gives a player coins, wherever they are (a
 * payment webhook's stand-in: grant-endpoint.ts); `GET /health` reports the server; `GET
 * /events` streams the driver's and the handoff's events (Server-Sent Events: event-stream.ts)
 * for the Try it page and for watching a fleet. `--faults` (a demo and test tool) adds `POST /faults`: see
 * fault-controls.ts. The bench's `--high-res-clock`, `--batch-events` and
 * `--message-limits-times` and `--no-on-message`: see args.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { stopWithParent } from '@datadriver/backends';
import { consoleLogger, DataDriver, DEFAULTS, Handoff, scaleTimings } from '@datadriver/core';
import { WebSocketServer } from 'ws';
import { parseArgs } from './args.js';
import { connectBackends } from './backends.js';
import { DRIVER_NAME } from './driver-name.js';
import { EventStream } from './event-stream.js';
import { exitAfter } from './exit-after.js';
import { FaultControls } from './fault-controls.js';
import { applyMessage, type PlayerData, play } from './game.js';
import { GiftNotices } from './gift-notices.js';
import { routeGrant } from './grant-endpoint.js';
import { HighResScheduler } from './high-res-scheduler.js';
import { messageLimitsTimes } from './message-limits.js';
import { ReleaseWatch } from './release-watch.js';
import { handoffSigningKey } from './signing-key.js';
import { send, WebSocketHost } from './websocket-host.js';

const args = parseArgs(process.argv.slice(2));
const logger = consoleLogger(`[${args.jobId}]`);
const backends = await connectBackends(process.env, logger, args.stack);
// Only with --faults do the ports go through the fault decorators.
const faults = args.faults ? new FaultControls(backends.store, backends.presence) : undefined;
const store = faults?.store ?? backends.store;
const presence = faults?.presence ?? backends.presence;

const scheduler = args.highResClock ? new HighResScheduler() : undefined;

// One handoff per server, made first so its constants follow --scale; none with --no-handoff.
const handoff = args.handoff
  ? Handoff.shared(args.jobId, {
      messenger: backends.messenger,
      presence,
      logger,
      timings: scaleTimings(args.scale),
      scheduler,
      limits:
        args.messageLimitsTimes === undefined
          ? undefined
          : messageLimitsTimes(args.messageLimitsTimes),
      // A hand-over is asked and honoured only between servers that sign.
      ...(args.handOverLocks ? { signing: { key: handoffSigningKey(process.env) } } : {}),
    })
  : undefined;
const lockTtlSeconds = args.lockTtlSeconds ?? DEFAULTS.lockTtlSeconds * args.scale;
const driver = new DataDriver<PlayerData>({
  name: DRIVER_NAME,
  defaults: { coins: 0 },
  store,
  messenger: backends.messenger,
  presence,
  logger,
  ...(args.handoff ? {} : { handoff: false }),
  lockWaitSeconds: DEFAULTS.lockWaitSeconds * args.scale,
  // At most half the lock's lifetime, as the driver requires, when --lock-ttl shortens it.
  autosaveSeconds: Math.min(DEFAULTS.autosaveSeconds * args.scale, lockTtlSeconds / 2),
  lockTtlSeconds,
  lockSkewSeconds: args.lockSkewSeconds ?? DEFAULTS.lockSkewSeconds * args.scale,
  scheduler,
  ...(args.handOverLocks ? { handOverLocks: true } : {}),
});

const releases = new ReleaseWatch(driver);
const host = new WebSocketHost(args.jobId, {
  kickFramesAfter: (player) => releases.released(player.id),
});
const waits = new Map<string, number>();
const events = new EventStream({ batched: args.batchEvents });
const notices = new GiftNotices((key) => driver.profile(key)?.data.coins);
driver.on((event) => {
  if (event.type === 'load.loaded') waits.set(event.key, event.waitedMs);
  if (event.type === 'profile.saved') notices.saved(event.key);
  events.push(event);
});
// The beats reach the driver's listeners above (the server's shared handoff reports to every
// driver attached to it), so a watcher can tell when this server last showed it was alive.
driver.attach(host, {
  onLoad: (profile, player) => {
    send(player, {
      type: 'loaded',
      coins: profile.data.coins,
      waitedMs: waits.get(player.id),
      server: args.jobId,
    });
    play(driver, player);
    notices.play(player.id, player);
  },
  onLeave: (_profile, player) => notices.left(player.id),
  ...(args.onMessage ? { onMessage: applyMessage(notices) } : {}),
});

const http = createServer((request, response) => {
  route(request, response).catch((error: unknown) => {
    logger.error(`request ${request.url} failed: ${String(error)}`);
    if (!response.headersSent) response.writeHead(500);
    response.end();
  });
});
const sockets = new WebSocketServer({ server: http, path: '/play' });
// ws re-emits the HTTP server's errors, which the listen handler below reports.
sockets.on('error', () => undefined);
sockets.on('connection', (socket, request) => {
  const user = new URL(request.url ?? '', 'http://localhost').searchParams.get('user');
  if (!user) {
    socket.close(4001, 'a user id is required: /play?user=<id>');
    return;
  }
  host.connect(socket, user);
});

async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (faults && (await faults.route(request, response))) return;
  if (await routeGrant(driver, request, response)) return;
  if (request.url === '/health') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        jobId: args.jobId,
        players: host.count,
        backends: backends.description,
        handoff: driver.handoff !== undefined,
        faults: faults !== undefined,
      }),
    );
    return;
  }
  if (request.url === '/events') {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    request.on('close', events.add(response));
    return;
  }
  response.writeHead(404).end();
}

http.once('error', (error: NodeJS.ErrnoException) => {
  // Only listen() fails this way; without the handler a busy port is a bare EADDRINUSE trace.
  const why =
    error.code === 'EADDRINUSE'
      ? `port ${args.port} is already in use (another game server or fleet still running?). Stop it, or choose another port with --port (0 picks a free one).`
      : error.message;
  exitAfter(
    `game server ${args.jobId} cannot listen on 127.0.0.1:${args.port}: ${why}`,
    1,
    process.stderr,
  );
});
http.listen(args.port, '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : args.port;
  // The fleet and the tests wait for this exact line.
  console.log(
    `game server ${args.jobId} listening on ws://127.0.0.1:${port}/play (${backends.description})`,
  );
});

// A clean shutdown releases every profile, so the next server loads them at once.
let stopping = false;
stopWithParent();
// Started by a parent (the fleet, Try it, a test), this server is stopped by that parent's
// SIGTERM. A terminal's Ctrl-C reaches the parent too, which says it is stopping and then stops
// its servers; a server answering the Ctrl-C itself could print its stop line before that, on
// the terminal's "^C". Started by hand, Ctrl-C stops it.
if (process.channel) process.on('SIGINT', () => undefined);
for (const signal of process.channel ? (['SIGTERM'] as const) : (['SIGTERM', 'SIGINT'] as const)) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    const result = await driver.close({ deadlineSeconds: 10 });
    await handoff?.destroy();
    events.end();
    sockets.close();
    http.close();
    await backends.close();
    // A profile left locked is a failed stop: whoever started this server should hear of it.
    exitAfter(
      `game server ${args.jobId} stopped: released ${result.released.length}, unreleased ${result.unreleased.length}`,
      result.unreleased.length === 0 ? 0 : 1,
    );
  });
}
