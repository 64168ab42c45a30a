/**
 * The bot's command line: `--servers`, `--hops`, `--user`, `--rejoin-every`, `--play-ms`,
 * `--gift-at`, `--gift-coins`, `--help`.
 */
export interface BotArgs {
  readonly servers: readonly string[];
  readonly hops: number;
  readonly user: string;
  readonly rejoinEvery: number;
  readonly playMs: number;
  /** The hop at which the bot grants itself a gift (`undefined`: none). */
  readonly giftAt: number | undefined;
  readonly giftCoins: number;
  readonly help: boolean;
}

export const DEFAULT_SERVERS = 'ws://127.0.0.1:7001,ws://127.0.0.1:7002,ws://127.0.0.1:7003';

export const BOT_USAGE = `Usage: pnpm bot [--hops N] [--servers URL,URL,...] [--user ID] [--rejoin-every K] [--play-ms MS]
               [--gift-at N] [--gift-coins C]

A player that plays on one game server, hops to the next while still connected there, leaves
and rejoins every K-th hop, and checks at each arrival that no coin was lost or rolled back.
When its server dies it joins the next one and reports the takeover time. Start the servers
first with \`pnpm fleet\`.

  --hops N          hops to make (default 10)
  --servers URLS    the game servers, comma-separated (default ${DEFAULT_SERVERS})
  --user ID         the player's user id (default bot-<pid>)
  --rejoin-every K  leave and rejoin instead of a live hop every K-th hop (default 3)
  --play-ms MS      how long to play on each server before hopping (default 0)
  --gift-at N       at hop N, grant itself coins through another server's POST /grant and
                    print the gift arriving (default none)
  --gift-coins C    the gift's coins (default 100)
  --help            this text

Exit code 0 when every saved coin arrived, 1 when one did not or the bot could not play, 2 for a
bad option.`;

const OPTIONS = [
  'servers',
  'hops',
  'user',
  'rejoin-every',
  'play-ms',
  'gift-at',
  'gift-coins',
] as const;

function wholeNumber(name: string, raw: string, min: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min) {
    throw new Error(
      `--${name} must be a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${raw}"`,
    );
  }
  return value;
}

export function parseBotArgs(argv: readonly string[], pid = process.pid): BotArgs {
  const given = new Map<string, string>();
  let help = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const name = arg.replace(/^--/, '');
    if (!arg.startsWith('--') || !(OPTIONS as readonly string[]).includes(name)) {
      throw new Error(`unknown option "${arg}"`);
    }
    const value = argv[index + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a value`);
    given.set(name, value);
    index += 1;
  }
  const servers = (given.get('servers') ?? DEFAULT_SERVERS).split(',').map((url) => url.trim());
  for (const url of servers) {
    if (!/^wss?:\/\/[^/]+$/.test(url)) {
      throw new Error(`--servers takes ws://host:port addresses, comma-separated; got "${url}"`);
    }
  }
  if (servers.length < 2) throw new Error('--servers needs at least two servers to hop between');
  const user = given.get('user') ?? `bot-${pid}`;
  const giftAt = given.get('gift-at');
  if (user === '') throw new Error('--user must not be empty');
  const hops = wholeNumber('hops', given.get('hops') ?? '10', 1);
  if (giftAt !== undefined && wholeNumber('gift-at', giftAt, 1) > hops) {
    throw new Error(`--gift-at must be a hop the bot makes (1 to ${hops}), got "${giftAt}"`);
  }
  return {
    servers,
    hops,
    user,
    rejoinEvery: wholeNumber('rejoin-every', given.get('rejoin-every') ?? '3', 1),
    playMs: wholeNumber('play-ms', given.get('play-ms') ?? '0', 0),
    giftAt: giftAt === undefined ? undefined : wholeNumber('gift-at', giftAt, 1),
    giftCoins: wholeNumber('gift-coins', given.get('gift-coins') ?? '100', 1),
    help,
  };
}
