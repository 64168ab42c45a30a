/** Every key a test's prefix owns, byte for byte (DUMP), to prove a command wrote nothing. */
import type { Redis } from 'ioredis';

export async function redisSnapshot(client: Redis, prefix: string): Promise<Map<string, string>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const snapshot = new Map<string, string>();
  for (const key of [...new Set(keys)].sort()) {
    const dump = await client.dumpBuffer(key);
    if (dump) snapshot.set(key, dump.toString('base64'));
  }
  return snapshot;
}
