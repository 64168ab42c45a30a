/**
 * `node dist/bot-cli.js --servers ws://127.0.0.1:7001,ws://127.0.0.1:7002 --hops 20`
 * Plays through the servers and prints each arrival, then a summary (`--help` for the options).
 */

import { type Hop, runBot } from './bot.js';
import { BOT_USAGE, type BotArgs, parseBotArgs } from './bot-args.js';
import type { GiftArrival } from './gift.js';
import { formatGift, formatHop, summary } from './report.js';

let args: BotArgs;
try {
  args = parseBotArgs(process.argv.slice(2));
} catch (error) {
  console.error(`pnpm bot: ${(error as Error).message}\n\n${BOT_USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(BOT_USAGE);
  process.exit(0);
}

try {
  const gifts: GiftArrival[] = [];
  const hops: Hop[] = await runBot({
    servers: args.servers,
    user: args.user,
    hops: args.hops,
    rejoinEvery: args.rejoinEvery,
    playMs: args.playMs,
    onHop: (hop) => console.log(formatHop(hop)),
    ...(args.giftAt === undefined ? {} : { giftAt: args.giftAt, giftCoins: args.giftCoins }),
    onGift: (gift) => {
      gifts.push(gift);
      console.log(formatGift(gift));
    },
  });
  console.log(summary(hops, gifts));
} catch (error) {
  console.error(`bot failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
