/**
 * `pnpm fleet`: a redis-server (or a PostgreSQL with `--stack postgres`) and three game servers
 * for trying DataDriver by hand. Ctrl-C (or SIGTERM, SIGHUP) stops the game servers first, each
 * releasing its profiles, then the backend, and exits 0 when every profile was released. A
 * server that dies meanwhile is reported.
 */

import { botSuggestion } from './bot-suggestion.js';
import { exitAfter } from './exit-after.js';
import { type Fleet, startFleet } from './fleet.js';
import { FLEET_USAGE, parseFleetArgs } from './fleet-args.js';

const args = (() => {
  try {
    return parseFleetArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`pnpm fleet: ${(error as Error).message}\n\n${FLEET_USAGE}`);
    process.exit(2);
  }
})();
if (args.help) {
  console.log(FLEET_USAGE);
  process.exit(0);
}

let fleet: Fleet | undefined;
let stopping = false;

// Installed before anything starts: an interrupt during the start still stops in order.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return; // a second Ctrl-C (or pnpm relaying the first) changes nothing
    stopping = true;
    if (fleet) void stop(fleet);
  });
}

try {
  fleet = await startFleet({
    count: args.count,
    firstPort: args.firstPort,
    scale: args.scale,
    stack: args.stack,
    ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    echo: true,
    log: (message) => console.log(`fleet: ${message}`),
    onServerExit: (jobId, how) => {
      if (stopping) return; // the terminal's Ctrl-C reached it directly
      console.log(
        `\nfleet: game server ${jobId} exited unexpectedly (${how}). The others keep running; a player of ${jobId} who joins one of them is taken over once ${jobId}'s presence expires (10 to 15 s at --scale 1).`,
      );
    },
  });
} catch (error) {
  console.error(`\nfleet could not start: ${(error as Error).message}`);
  process.exit(1);
}

if (stopping) {
  await stop(fleet);
} else {
  const where = `${fleet.stack === 'postgres' ? 'PostgreSQL' : 'Redis'} at ${fleet.backendUrl}`;
  console.log(`\nfleet up (${where}).`);
  for (const line of botSuggestion(fleet.servers.map((server) => server.url))) console.log(line);
  console.log('Ctrl-C stops the fleet.');
}

async function stop(running: Fleet): Promise<void> {
  const backend = running.stack === 'postgres' ? 'PostgreSQL' : 'Redis';
  console.log(
    `\nstopping the fleet: each game server releases its profiles, then ${backend} stops`,
  );
  const { clean, exits } = await running.stop();
  if (clean) {
    exitAfter('fleet stopped: every profile released', 0);
    return;
  }
  const failed = [...exits].filter(([, code]) => code !== 0).map(([jobId]) => jobId);
  exitAfter(`fleet stopped; ${failed.join(', ')} did not release every profile (see above)`, 1);
}
