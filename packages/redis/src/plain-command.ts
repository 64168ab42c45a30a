/**
 * A command sent as the client sends it with auto-pipelining off, whatever its
 * `enableAutoPipelining`. The store already sends the commands of one tick in one socket write
 * (`coalesce.ts`); an auto-pipeline adds a pipeline object per tick and defers the write to
 * `setImmediate`, which cost node 11 to 13 µs more CPU per load + save + release
 * (`AUTO=1 node bench/scripts/redis-only-cycle.mjs`). The key prefix, the reply's encoding and
 * the friendly error stack are the client's, as its own command methods set them.
 */
import { Command } from 'ioredis';
import type { RedisClient } from './client.js';

export function sendPlain(
  client: RedisClient,
  name: string,
  args: Array<string | number>,
): Promise<unknown> {
  const { keyPrefix, showFriendlyErrorStack } = client.options;
  const command = new Command(name, args, {
    keyPrefix,
    replyEncoding: 'utf8',
    errorStack: showFriendlyErrorStack ? new Error() : undefined,
  });
  client.sendCommand(command);
  return command.promise;
}
