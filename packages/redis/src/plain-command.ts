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
  // The friendly stack starts here, as a command method's does: made for each command.
  const options = showFriendlyErrorStack
    ? { keyPrefix, replyEncoding: 'utf8' as const, errorStack: new Error() }
    : commandOptionsOf(client, keyPrefix);
  const command = new Command(name, flatAlready(args), options);
  client.sendCommand(command);
  return command.promise;
}

type CommandOptions = ConstructorParameters<typeof Command>[2];

/**
 * Each client's command options with no friendly error stack, made once while its key prefix
 * stays the same: a command reads them as it is made and neither keeps nor changes them.
 */
const optionsByClient = new WeakMap<RedisClient, CommandOptions & { keyPrefix?: string }>();

function commandOptionsOf(client: RedisClient, keyPrefix: string | undefined): CommandOptions {
  const known = optionsByClient.get(client);
  if (known !== undefined && known.keyPrefix === keyPrefix) return known;
  const options = { keyPrefix, replyEncoding: 'utf8' as const, errorStack: undefined };
  optionsByClient.set(client, options);
  return options;
}

/**
 * `args`, which are flat, told so: a `Command` copies its arguments with their `flat()`, and V8's
 * `Array.prototype.flat` took 540 ns for six strings (a copy by `slice`, 7 ns): a tenth of the
 * store's node CPU per load + save + release. The array's own `flat` copies it by `slice`; the
 * command reads its arguments by index only, as ioredis reads every command's. (Not the array
 * itself: a reply error shows the command's arguments, which should not carry this `flat`.)
 */
function flatAlready(args: Array<string | number>): Array<string | number> {
  (args as unknown as { flat: typeof copyOf }).flat = copyOf;
  return args;
}

function copyOf(this: Array<string | number>): unknown[] {
  return this.slice();
}
