/**
 * The store's commands of one tick in one socket write. Many profiles in flight on one
 * connection make their next writes together (one read of replies resolves them all, and each
 * continuation sends its next command), and a loopback `write` costs node 10 to 17 µs of CPU,
 * mostly the syscall: the bench's cycle-profile measured it at a third of a cycle's CPU, one
 * write per command. The first command corks the connection's socket, and a `process.nextTick`
 * callback uncorks it: Node runs it once the promise continuations that sent the burst have
 * run, so the burst leaves in one `writev`. Nothing is reordered on a connection (every write
 * of that socket, the app's own too, waits in the same buffer) and nothing waits past the tick
 * that sent it. A command sent straight from a timer or I/O callback is uncorked before that
 * callback's continuations run, so such a burst may take two writes.
 */
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './client.js';

type Socket = Redis['stream'];

/** The clients and sockets corked in this tick: each is corked once, uncorked on the next. */
const corked = new WeakSet<RedisClient | Socket>();

/** Holds the writes `client` makes in this tick until the next tick, then sends them at once. */
export function coalesceTick(client: RedisClient): void {
  if (!client.isCluster) {
    corkForTick((client as Redis).stream);
    return;
  }
  if (corked.has(client)) return;
  corked.add(client);
  process.nextTick(forget, client);
  // The command's node is the Cluster client's to pick: each node holds this tick's writes.
  for (const node of (client as Cluster).nodes('all')) corkForTick(node.stream);
}

function corkForTick(socket: Socket | undefined): void {
  if (socket === undefined || !socket.writable || corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(uncork, socket);
}

function uncork(socket: Socket): void {
  corked.delete(socket);
  socket.uncork();
}

function forget(client: RedisClient): void {
  corked.delete(client);
}
