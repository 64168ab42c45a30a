/**
 * Reproduction (found by `pnpm chaos --stack dynamodb --seed 5 --duration 16 --servers 3
 * --players 10 --rate 5`): a RedisMessenger's subscriber connection drops right after a
 * reconnect, while ioredis's automatic re-SUBSCRIBE awaits its reply, and stays down for one
 * more attempt. ioredis rejects that SUBSCRIBE with MaxRetriesPerRequestError (the duplicate
 * inherits `maxRetriesPerRequest: 1` from RECOMMENDED_REDIS_OPTIONS), nobody handles the
 * rejection (ioredis issues it from its ready handler without a catch), and the process dies
 * of an unhandled rejection.
 *
 *   node tools/chaos/repro/resubscribe-crash.mjs     (after `pnpm chaos` built the packages)
 *
 * Exits 1 with "CRASH" when the process would have died, 0 when it survives.
 */
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRedis } from '@datadriver/backends';
import { RECOMMENDED_REDIS_OPTIONS, RedisMessenger } from '@datadriver/redis';
import { Redis } from 'ioredis';

const redis = await startRedis({ env: {} });
const sockets = new Set();
let server;
/** Armed: a connection that sends SUBSCRIBE is cut, and the proxy stops listening. */
let armed = false;
let port = 0;

function listen() {
  return new Promise((resolve) => {
    server = createServer((client) => {
      const upstream = connect(redis.port, '127.0.0.1');
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      }
      client.on('data', (chunk) => {
        if (armed && /subscribe/i.test(chunk.toString())) {
          armed = false;
          void cut();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
    });
    server.listen(port, '127.0.0.1', () => {
      port = server.address().port;
      resolve();
    });
  });
}

function cut() {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

let crashed = false;
process.on('unhandledRejection', (reason) => {
  crashed = true;
  console.log(`CRASH: unhandled rejection: ${reason?.name}: ${reason?.message}`);
});

await listen();
const client = new Redis(`redis://127.0.0.1:${port}`, { ...RECOMMENDED_REDIS_OPTIONS });
client.on('error', () => undefined);
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const messenger = new RedisMessenger({ client, logger: silent });
await messenger.subscribe('topic', () => undefined);

// The bus goes away, comes back, and goes away again as the subscriber re-subscribes.
await cut();
await sleep(300);
armed = true;
await listen();
await sleep(3_000);

await messenger.close().catch(() => undefined);
client.disconnect();
await redis.stop();
console.log(crashed ? 'the process would have died' : 'survived');
process.exit(crashed ? 1 : 0);
