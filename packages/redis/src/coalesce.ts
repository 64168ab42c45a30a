/**
 * The store's commands of one tick in one socket write. Many profiles in flight on one
 * connection make their next writes together (one read of replies resolves them all, and each
 * continuation sends its next command), and a loopback `write` costs node 10 to 17 µs of CPU,
 * mostly the syscall: the bench's cycle-profile measured it at a third of a cycle's CPU, one
 * write per command. A tick's first command corks the connection's socket (on an idle
 * connection, its second: below), and a `process.nextTick` callback uncorks it: Node runs it
 * once the promise continuations that sent the burst have run, so the burst leaves in one
 * `writev`. Nothing is reordered on a connection (every write of that socket, the app's own
 * too, waits in the same buffer) and nothing waits past the tick that sent it. A command sent
 * straight from a timer or I/O callback is uncorked before that callback's continuations run,
 * so such a burst may take two writes.
 *
 * A command on a connection that awaits no reply (an idle server's load, a hand-over's read and
 * its release) leaves at once, and only its tick's next commands are corked. Corked, it would
 * wait for the rest of the turn that sent it: after a player's join, the WebSocket upgrade's
 * remainder; after a release request, the kick's, all of it slow on a process just woken from
 * idle. A connection that still awaits a reply corks a tick's first command too: that reply's
 * continuations are coming. One whose every reply has just arrived sends its first at once and
 * the rest in one `writev`. `bench/scripts/redis-cycle-ab.sh` and `handover-ab.sh` measured it.
 */
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './client.js';

type Socket = Redis['stream'];

/** The Cluster clients whose sockets are corked in this tick. */
const corkedClients = new WeakSet<RedisClient>();

/**
 * A socket's writes in this tick: `sent`, its first command left at once (its connection was
 * idle); `corked`, the tick's commands from here on wait for the next tick.
 */
const socketTicks = new WeakMap<Socket, 'sent' | 'corked'>();

/** Holds the writes `client` makes in this tick until the next tick, then sends them at once. */
export function coalesceTick(client: RedisClient): void {
  if (!client.isCluster) {
    const redis = client as Redis;
    // ioredis's commands written and awaiting a reply (typed, but marked internal): the
    // socket-writes tests pin down what this reads.
    corkForTick(redis.stream, redis.commandQueue.length === 0);
    return;
  }
  if (corkedClients.has(client)) return;
  corkedClients.add(client);
  process.nextTick(forget, client);
  // The command's node is the Cluster client's to pick: each node holds this tick's writes.
  for (const node of (client as Cluster).nodes('all')) corkForTick(node.stream, false);
}

/** `idle`: the connection awaits no reply, so a first command in this tick leaves at once. */
function corkForTick(socket: Socket | undefined, idle: boolean): void {
  if (socket === undefined || !socket.writable) return;
  const tick = socketTicks.get(socket);
  if (tick === 'corked') return;
  if (tick === undefined) {
    process.nextTick(endTick, socket);
    if (idle) {
      socketTicks.set(socket, 'sent');
      return;
    }
  }
  socketTicks.set(socket, 'corked');
  socket.cork();
}

function endTick(socket: Socket): void {
  const tick = socketTicks.get(socket);
  socketTicks.delete(socket);
  if (tick === 'corked') socket.uncork();
}

function forget(client: RedisClient): void {
  corkedClients.delete(client);
}
