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
  const command = new Command(name, flatAlready(args), {
    keyPrefix,
    replyEncoding: 'utf8',
    errorStack: showFriendlyErrorStack ? new Error() : undefined,
  });
  client.sendCommand(command);
  return command.promise;
}

/**
 * `args`, which are flat, told so: a `Command` copies its arguments with their `flat()`, and V8's
 * `Array.prototype.flat` took 540 ns for six strings (a copy by `slice`, 7 ns): a tenth of the
 * store's node CPU per load + save + release. The array's own `flat` copies it by `slice`; the
 * command reads its arguments by index only, as ioredis reads every command's.
 */
function flatAlready(args: Array<string | number>): Array<string | number> {
  (args as unknown as { flat: typeof copyOf }).flat = copyOf;
  return args;
}

function copyOf(this: Array<string | number>): unknown[] {
  return this.slice();
}
