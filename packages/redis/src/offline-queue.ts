/**
 * The Cluster client's offline queue, where ioredis holds a command while no node answers
 * (the client is connecting, or reconnecting after losing the cluster), and runs it once the
 * cluster is back, however late. A call that failed its caller must not run minutes later (a
 * presence beat of a server that closed, a purge), nor pile up in memory during an outage, so
 * the adapters take their commands back out of it.
 *
 * The queue is not part of ioredis's typings: it is read through the shape it has in ioredis 5
 * and 6 (`offlineQueue`, a `denque` of `{ command }`), and when that shape is missing nothing is
 * taken out (a call is then bounded by its deadline only, as before).
 */
import type { Cluster } from 'ioredis';

/** What the Cluster client keeps of each queued command. */
interface Queued {
  readonly command?: {
    readonly name?: string;
    readonly promise?: unknown;
    reject?(error: Error): void;
  };
}

interface Queue {
  readonly length: number;
  peekAt(index: number): Queued | undefined;
  removeOne(index: number): unknown;
}

/** Statuses of a client still making its first connection (or a new one): calls may wait. */
const CONNECTING: ReadonlySet<string> = new Set(['wait', 'connecting', 'connect']);

/** The Cluster clients the adapters were made with: the queues where their calls may wait. */
const clusters = new Set<WeakRef<Cluster>>();
const known = new WeakSet<Cluster>();
/** Calls that failed their caller: their commands must not run. */
const failed = new WeakSet<Promise<unknown>>();

/**
 * Notes `cluster` as a client whose queue the adapters' calls may enter. A command can enter
 * it after its call failed (ioredis retries a command whose connection closed, after its
 * caller's timeout), so each time the client has read its slot map again, on the way back
 * from an outage and before it sends what it queued, those are taken out.
 */
export function watchQueue(cluster: Cluster): void {
  if (known.has(cluster)) return;
  known.add(cluster);
  clusters.add(new WeakRef(cluster));
  // First of the listeners: ioredis's own, which goes on to send the queue, comes after.
  cluster.prependListener('refresh', () => sweep(cluster));
}

function queueOf(cluster: Cluster): Queue | undefined {
  const queue = (cluster as unknown as { offlineQueue?: Partial<Queue> }).offlineQueue;
  return typeof queue?.peekAt === 'function' && typeof queue.removeOne === 'function'
    ? (queue as Queue)
    : undefined;
}

function* liveClusters(): Generator<Cluster> {
  for (const ref of clusters) {
    const cluster = ref.deref();
    if (cluster === undefined) clusters.delete(ref);
    else yield cluster;
  }
}

/**
 * Takes the command at `index` out of `queue` and rejects its caller with `error` (once
 * settled, a command's promise stays as it is). `error` must not read as one that ioredis
 * retries (a closed connection, MOVED, TRYAGAIN...), or it would queue the command again.
 */
function take(queue: Queue, index: number, error: Error): true {
  const { command } = queue.peekAt(index) ?? {};
  queue.removeOne(index);
  command?.reject?.(error);
  return true;
}

/**
 * When the command behind `call` was just queued by a client that had the cluster and lost it
 * (reconnecting, closing), takes it out and rejects `call` with `refusal(status)`: a call then
 * fails at once instead of waiting out its deadline. A client still connecting keeps it (until
 * the call fails: `forget`). True when taken.
 */
export function refuseQueued(call: Promise<unknown>, refusal: (status: string) => Error): boolean {
  for (const cluster of liveClusters()) {
    if (cluster.status === 'ready' || CONNECTING.has(cluster.status)) continue;
    const queue = queueOf(cluster);
    // Queued synchronously by the call: it is the last command in.
    const last = queue === undefined ? -1 : queue.length - 1;
    if (queue && last >= 0 && queue.peekAt(last)?.command?.promise === call) {
      return take(queue, last, refusal(cluster.status));
    }
  }
  return false;
}

/** Notes that `call` failed its caller, and takes its command out of whichever queue holds it. */
export function forget(call: Promise<unknown>, error: Error): void {
  failed.add(call);
  for (const cluster of liveClusters()) {
    const queue = queueOf(cluster);
    if (queue === undefined) continue;
    for (let index = queue.length - 1; index >= 0; index -= 1) {
      if (queue.peekAt(index)?.command?.promise === call) {
        take(queue, index, error);
        return;
      }
    }
  }
}

/** Takes the commands of failed calls out of `cluster`'s queue. */
function sweep(cluster: Cluster): void {
  const queue = queueOf(cluster);
  if (queue === undefined) return;
  for (let index = queue.length - 1; index >= 0; index -= 1) {
    const promise = queue.peekAt(index)?.command?.promise;
    if (promise instanceof Promise && failed.has(promise)) queue.removeOne(index);
  }
}

/** The names of the commands `cluster` holds in its offline queue, oldest first (for tests). */
export function queuedCommands(cluster: Cluster): string[] {
  const queue = queueOf(cluster);
  const names: string[] = [];
  for (let index = 0; index < (queue?.length ?? 0); index += 1) {
    names.push(queue?.peekAt(index)?.command?.name ?? '?');
  }
  return names;
}
