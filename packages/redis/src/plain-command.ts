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
  /** Made for this command: it becomes the command's own (see `flatAlready`). */
  args: Array<string | number>,
): Promise<unknown> {
  const command = new Command(name, flatAlready(args), commandOptionsOf(client));
  client.sendCommand(command);
  return command.promise;
}

type CommandOptions = ConstructorParameters<typeof Command>[2];

/**
 * Each client's command options, made once while its key prefix stays the same: a command
 * reads them as it is made and keeps none. With the friendly error stack on, each command's
 * own, as the client's command methods make it.
 */
const optionsByClient = new WeakMap<RedisClient, CommandOptions & { keyPrefix?: string }>();

function commandOptionsOf(client: RedisClient): CommandOptions {
  const { keyPrefix, showFriendlyErrorStack } = client.options;
  if (showFriendlyErrorStack) return { keyPrefix, replyEncoding: 'utf8', errorStack: new Error() };
  const known = optionsByClient.get(client);
  if (known !== undefined && known.keyPrefix === keyPrefix) return known;
  const options = { keyPrefix, replyEncoding: 'utf8' as const, errorStack: undefined };
  optionsByClient.set(client, options);
  return options;
}

/**
 * `args`, which are flat, told so: a `Command` takes its arguments by their `flat()`, and V8's
 * `Array.prototype.flat` took 540 ns for six strings (a copy by `slice`, 7 ns): a tenth of the
 * store's node CPU per load + save + release. The array's own `flat` returns the array itself:
 * every caller makes it for the one command, which reads its arguments by index only (as ioredis
 * reads every command's) and is the only one to change them (a key prefix, a number made a
 * string).
 */
function flatAlready(args: Array<string | number>): Array<string | number> {
  (args as unknown as { flat: typeof itself }).flat = itself;
  return args;
}

function itself(this: Array<string | number>): unknown[] {
  return this;
}
