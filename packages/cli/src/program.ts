/**
 * The `datadriver` command line: global options name the backends, each command reads (or,
 * for `restore` and `erase`, writes through core's DataDriver). `runCli` returns the exit
 * code: 0 done, 1 failed (a typed error, printed with its code), 2 bad usage.
 */
import { createRequire } from 'node:module';
import { DataDriverError, describeError } from '@datadriver/core/ports';
import { Command, CommanderError, Option } from 'commander';
import { inboxCommand, sendCommand } from './inbox-commands.js';
import type { CliIo } from './io.js';
import { kickCommand } from './kick-command.js';
import { type CommandContext, commandContext, type GlobalOptions } from './options.js';
import {
  findUserCommand,
  inspectCommand,
  serversCommand,
  versionsCommand,
} from './read-commands.js';
import { eraseCommand, restoreCommand } from './write-commands.js';

/** This package's version, as published. */
export const VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;

type Action = (context: CommandContext, ...args: never[]) => Promise<unknown>;

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command('datadriver')
    .description("Inspect DataDriver's records, locks and presence; restore or erase a profile.")
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError()
    .option(
      '--redis <url>',
      'Redis of the records (unless --table), presence and hand-over messages',
    )
    .option('--prefix <prefix>', "the Redis adapters' key prefix", 'dd:')
    .option('--table <name>', 'DynamoDB table of the records')
    .option(
      '--versions-table <name>',
      'DynamoDB table of their versions (default <table>-versions)',
    )
    .option('--presence-table <name>', 'DynamoDB table of presence (default: presence on --redis)')
    .option('--key-attribute <name>', "the DynamoDB tables' partition key", 'pk')
    .option('--endpoint <url>', 'DynamoDB endpoint (DynamoDB Local, a VPC endpoint)')
    .option('--region <region>', 'DynamoDB region (default: from the AWS environment)')
    .option('--postgres <url>', 'PostgreSQL of the records, presence and hand-over messages')
    // Not `--schema`: restore's `--schema <module>` names the game's data schema.
    .option('--postgres-schema <name>', "the PostgreSQL adapters' schema (default datadriver)")
    .option('--json', 'print JSON for scripts instead of a table')
    .addOption(new Option('--presence-ttl <seconds>', "the servers' presence TTL").default('10'))
    .addOption(new Option('--lock-ttl <seconds>', "the servers' lockTtlSeconds").default('180'))
    .addOption(new Option('--lock-skew <seconds>', "the servers' lockSkewSeconds").default('60'))
    .addOption(
      new Option('--lock-wait <seconds>', 'how long restore and erase wait for a lock').default(
        '15',
      ),
    )
    .option('--versions-keep <n>', "the servers' version retention count, kept by restore's write")
    .option('--versions-max-age <seconds>', "the servers' version retention age")
    .option(
      '--job-id <id>',
      'the server id restore and erase lock under (default datadriver-cli-<host>-<random>)',
    );

  const run =
    (action: Action) =>
    async (...args: unknown[]) => {
      const command = args.at(-1) as Command;
      const options = command.optsWithGlobals<GlobalOptions>();
      const context = await commandContext(io, options);
      try {
        await (action as (context: CommandContext, ...rest: unknown[]) => Promise<unknown>)(
          context,
          ...args.slice(0, -1),
        );
      } finally {
        await context.backends.close();
      }
    };

  program
    .command('inspect')
    .description(
      "a profile's lock, its holder's presence, trade, versions, and what a load would decide now",
    )
    .argument('<driver>', "the DataDriver's name (PlayerData)")
    .argument('<key>', 'the profile key (the user id by default)')
    .option('--data', "also print the record's data")
    .option('--versions <n>', 'how many of the newest versions to list', '5')
    .action(run(inspectCommand as Action));
  program
    .command('servers')
    .description('the servers beating presence now, and the age of each beat')
    .action(run(serversCommand as Action));
  program
    .command('versions')
    .description('the kept versions of a profile, newest first')
    .argument('<driver>')
    .argument('<key>')
    .option('--limit <n>', 'at most this many', '20')
    .option(
      '--before <time>',
      'only versions written at or before (1h, 2025-06-01T12:00Z, epoch ms)',
    )
    .option('--after <time>', 'only versions written at or after')
    .option('--data', "also read each version's data")
    .action(run(versionsCommand as Action));
  program
    .command('find-user')
    .description(
      'every profile tagged with a user id (profile.addUserId), for data-protection requests',
    )
    .argument('<user-id>')
    .option('--driver <name>', 'only profiles of this driver')
    .action(run(findUserCommand as Action));
  program
    .command('restore')
    .description(
      "write the version current at --at as the profile's record, through DataDriver.restoreAt",
    )
    .argument('<driver>')
    .argument('<key>')
    .requiredOption(
      '--at <time>',
      'the time to go back to (1h, 90m, 2025-06-01T12:00:00Z, epoch ms)',
    )
    .option('--yes', 'do not ask for confirmation')
    .option(
      '--schema <module>',
      "refuse a version whose data fails the game's Standard Schema (this module's default or `schema` export) with Data.InvalidData, writing nothing; without it the data is not checked",
    )
    .action(run(restoreCommand as Action));
  program
    .command('erase')
    .description('delete a profile and every kept version, through DataDriver.erase')
    .argument('<driver>')
    .argument('<key>')
    .option('--yes', 'do not ask for confirmation')
    .action(run(eraseCommand as Action));

  program
    .command('kick')
    .description(
      'end a live session on purpose through its holder, which kicks the player with --reason (DataDriver.kick); never takes a live lock by age',
    )
    .argument('<driver>')
    .argument('<key>')
    .requiredOption('--reason <text>', "the player's kick message (1 to 200 characters)")
    .option('--yes', 'do not ask for confirmation')
    .action(run(kickCommand as Action));

  program
    .command('inbox')
    .description(
      "a profile's pending messages (id, when sent, size, body); --drop removes one unapplied",
    )
    .argument('<driver>')
    .argument('<key>')
    .option(
      '--drop <id>',
      'remove this pending message without applying it (one whose onMessage always throws); a send with its id is then a duplicate',
    )
    .option('--yes', 'do not ask for confirmation of --drop')
    .action(run(inboxCommand as Action));
  program
    .command('send')
    .description(
      'send one message to a profile through DataDriver.send: queued, or duplicate when the profile received the id before',
    )
    .argument('<driver>')
    .argument('<key>')
    .argument('<json>', "the message's body, as JSON")
    .requiredOption('--id <id>', "the message's idempotency key (a receipt id, a grant id)")
    .action(run(sendCommand as Action));

  try {
    await program.parseAsync(argv as string[], { from: 'user' });
  } catch (error) {
    exitCode = report(error, io, argv.includes('--json'));
  }
  return exitCode;
}

function report(error: unknown, io: CliIo, json: boolean): number {
  if (error instanceof CommanderError) {
    // Help and version print and exit 0; a usage error was already printed by commander.
    return error.exitCode === 0 ? 0 : 2;
  }
  // A typed error's stable code; otherwise the error's class (Cancelled: the person said no).
  const code = DataDriverError.isInstance(error)
    ? error.code
    : error instanceof Error
      ? error.name
      : 'Error';
  const message = describeError(error);
  if (json) io.stdout(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  else io.stderr(`${message.startsWith(code) ? '' : `${code}: `}${message}\n`);
  return 1;
}
