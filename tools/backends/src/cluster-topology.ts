/**
 * A Redis Cluster's shape as its nodes report it (`CLUSTER NODES`, `CLUSTER INFO`, `INFO
 * replication`), and the wait until every live node agrees on it: after a failover, a kill or a
 * restart, tests go on only once the cluster serves every slot from one agreed master.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClusterShard } from './backend.js';
import { redisCli } from './redis-cli.js';

interface NodeLine {
  readonly id: string;
  readonly port: number;
  readonly master: boolean;
  readonly masterId: string | undefined;
  /** Flagged `fail` (agreed), not just `fail?` (this node's suspicion). */
  readonly failed: boolean;
  readonly suspected: boolean;
  readonly slots: ReadonlyArray<readonly [number, number]>;
}

/** `CLUSTER NODES` as lines; slots being migrated (`[...]`) are left out. */
export function parseClusterNodes(text: string): NodeLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id = '', address = '', flags = '', master = '-', , , , , ...slots] = line.split(' ');
      const flagList = flags.split(',');
      return {
        id,
        port: Number(address.split('@')[0]?.split(':').at(-1)),
        master: flagList.includes('master'),
        masterId: master === '-' ? undefined : master,
        failed: flagList.includes('fail'),
        suspected: flagList.includes('fail?'),
        slots: slots
          .filter((range) => !range.startsWith('['))
          .map((range) => {
            const [start = '', end = start] = range.split('-');
            return [Number(start), Number(end)] as const;
          }),
      };
    });
}

/** The shards of one node's view, masters with slots only, by master port. */
export function shardsOf(lines: readonly NodeLine[]): ClusterShard[] {
  return lines
    .filter((line) => line.master && line.slots.length > 0)
    .map((line) => ({
      master: line.port,
      replicas: lines.filter((other) => other.masterId === line.id).map((other) => other.port),
      slots: line.slots,
    }))
    .sort((a, b) => a.master - b.master);
}

/** What must read the same on every live node once the cluster has settled. */
function agreedView(lines: readonly NodeLine[]): string {
  const portOf = new Map(lines.map((line) => [line.id, line.port]));
  return lines
    .map((line) => {
      const role = line.master ? 'master' : `replica-of-${portOf.get(line.masterId ?? '')}`;
      return `${line.port} ${role} ${line.failed ? 'fail' : 'up'} ${JSON.stringify(line.slots)}`;
    })
    .sort()
    .join('\n');
}

/** Why the cluster over `live` has not settled yet, or undefined when it has. */
async function unsettled(live: readonly number[]): Promise<string | undefined> {
  const views: string[] = [];
  for (const port of live) {
    const info = await redisCli(port, 'CLUSTER', 'INFO');
    if (!/cluster_state:ok/.test(info)) return `${port} reports cluster_state other than ok`;
    const lines = parseClusterNodes(await redisCli(port, 'CLUSTER', 'NODES'));
    const flagged = lines.find(
      (line) => live.includes(line.port) && (line.failed || line.suspected),
    );
    if (flagged) return `${port} flags live node ${flagged.port} as failing`;
    const orphaned = lines.find(
      (line) => line.master && line.slots.length > 0 && !live.includes(line.port),
    );
    if (orphaned) return `${port} still names dead node ${orphaned.port} as a master`;
    const me = lines.find((line) => line.port === port);
    if (me && !me.master) {
      const replication = await redisCli(port, 'INFO', 'replication');
      if (!/master_link_status:up/.test(replication)) return `replica ${port} is not in sync`;
    }
    views.push(agreedView(lines));
  }
  if (new Set(views).size > 1) return 'the live nodes disagree on the topology';
  return undefined;
}

/**
 * Resolves once every node in `live` reports `cluster_state:ok`, sees no live node failing and
 * no dead one serving slots, every live replica is in sync with its master, and all agree on
 * who serves what. Rejects with the last reason after `timeoutMs`.
 */
export async function waitUntilSettled(live: readonly number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let reason: string | undefined;
  for (;;) {
    try {
      reason = await unsettled(live);
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    if (reason === undefined) return;
    if (Date.now() >= deadline) {
      throw new Error(`the Redis Cluster did not settle within ${timeoutMs} ms: ${reason}`);
    }
    await sleep(50);
  }
}

/** The shards as the node on `port` sees them. */
export async function readShards(port: number): Promise<ClusterShard[]> {
  return shardsOf(parseClusterNodes(await redisCli(port, 'CLUSTER', 'NODES')));
}
