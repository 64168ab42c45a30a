/**
 * `node dist/bot-cli.js --servers ws://127.0.0.1:7001,ws://127.0.0.1:7002 --hops 20`
 * Plays through the servers and prints each wait, then a summary.
 */
import { runBot } from './bot.js';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

const servers = option(
  'servers',
  'ws://127.0.0.1:7001,ws://127.0.0.1:7002,ws://127.0.0.1:7003',
).split(',');
const hops = Number(option('hops', '10'));
const user = option('user', `bot-${process.pid}`);

try {
  const done = await runBot({
    servers,
    user,
    hops,
    onHop: (hop) =>
      console.log(
        `${String(hop.index).padStart(4)} ${hop.kind.padEnd(8)} -> ${hop.to}  wait ${String(hop.waitMs).padStart(5)} ms` +
          `  coins ${hop.coins}${hop.oldSessionEnded ? `  (old session: ${hop.oldSessionEnded})` : ''}`,
      ),
  });
  const waits = done
    .filter((hop) => hop.kind === 'live hop')
    .map((hop) => hop.waitMs)
    .sort((a, b) => a - b);
  const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))];
  console.log(
    `${done.length - 1} hops, every coin kept; live hop wait median ${at(0.5)} ms, p99 ${at(0.99)} ms`,
  );
} catch (error) {
  console.error(`bot failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
