/**
 * A peer "server" process: holds dynamodb-lock-client leases on the keys it is given, as a
 * game server on that library would hold its players' locks, so the bench can SIGKILL it.
 *
 *   node dist/peer/lease-holder-main.js '<HolderArgs as JSON>'
 *
 * Prints one JSON line per event: {"type":"acquired"}, {"type":"beat","at":<ms>} on every
 * heartbeat write, {"type":"released","key":...}. Reads `release <key>` lines on stdin.
 */
import { createInterface } from 'node:readline';
import type { Lock } from 'dynamodb-lock-client';
import {
  acquire,
  documentClient,
  type LeaseSettings,
  leaseClient,
  release,
  watchingPuts,
} from './lease-lock.js';

export interface HolderArgs extends Omit<LeaseSettings, 'retryCount'> {
  readonly keys: readonly string[];
}

function print(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const args = JSON.parse(process.argv[2] ?? '{}') as HolderArgs;
const locks = new Map<string, Lock>();
const input = createInterface({ input: process.stdin });
// The bench holds our stdin: when it goes away, so do we, even while still acquiring (a
// holder left acquiring once outlived a failed bench run and its DynamoDB Local).
input.on('close', () => process.exit(0));
input.on('line', (line) => {
  const [command, key] = line.trim().split(' ');
  const lock = key === undefined ? undefined : locks.get(key);
  if (command !== 'release' || !lock) return;
  release(lock).then(
    () => print({ type: 'released', key }),
    (error: Error) => print({ type: 'error', key, message: error.message }),
  );
});

let acquired = false;
const dynamodb = watchingPuts(documentClient(args.endpoint), () => {
  if (acquired) print({ type: 'beat', at: Date.now() });
});
const client = leaseClient({ ...args, retryCount: 0 }, dynamodb);
try {
  for (const key of args.keys) {
    const lock = await acquire(client, key);
    lock.on('error', (error: Error) => print({ type: 'error', key, message: error.message }));
    locks.set(key, lock);
  }
} catch (error) {
  // Told to the bench, which fails the trial that started us.
  print({ type: 'error', message: `acquire failed: ${(error as Error).message}` });
  process.exit(1);
}
acquired = true;
print({ type: 'acquired' });
