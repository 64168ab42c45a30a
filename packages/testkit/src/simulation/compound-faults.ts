/**
 * Faults that take a few moves to set up, each a path single faults reach too rarely:
 * - an older copy takes over: a server whose beats fail and whose incoming messages are lost
 *   reads as stopped while it lives; a player of it hops elsewhere, and while that load proves
 *   it stopped the player's old connection closes and the older copy of the driver there (no
 *   presence flag) picks up their profile: the load then meets that server's unflagged lock;
 * - a retained profile taken: a leave save keeps failing, the profile is retained, another
 *   server takes its lock (by presence or by age), then the player rejoins the first server,
 *   whose adoption finds the lock gone;
 * - a shutdown mid-trade: a trade's decision write fails and the server shuts down while the
 *   trade retries it; its process exits a few seconds after the close, so the trade learns it
 *   closed undecided.
 */
import type { Monitor } from './monitor.js';
import { PRESENCE_LIFETIME_MS } from './recording-backend.js';
import { loadAndHold } from './side-drivers.js';
import { connect, disconnect } from './workload.js';
import type { SimPlayer, SimServer, World } from './world.js';

/** How often an older copy's load is tried again while the key is locked (200 ms apart). */
const RETRIES = 25;

/** A trade's decision is retried 2 s apart (core's longest park): the process outlives that. */
const EXIT_AFTER_MS = 3000;

/** How long a shutdown waits for a trade's decision to fail before the fault is removed. */
const SHUTDOWN_ARMED_MS = 60_000;

export function olderCopyTakeover(world: World, monitor: Monitor): void {
  const random = world.random.faults;
  const servers = world
    .liveServers()
    .filter((server) => server.plan.handoff && olderCopyOf(world, server) !== undefined);
  if (servers.length === 0) return;
  const server = random.pick(servers);
  const older = olderCopyOf(world, server)!;
  const player = playerOn(world, server);
  if (!player) return;
  const hopAfterMs = PRESENCE_LIFETIME_MS + 1000; // its key has expired by then
  const closeAfterMs = random.int(300, 3500); // within the hopping load's proof, or near it
  const holdMs = random.int(500, 6000);
  const lastsMs = hopAfterMs + closeAfterMs + world.lockWaitMs + 5000;
  const faults = [
    server.test.presence.faults.inject({ kind: 'fail', operation: 'set', times: Infinity }),
    server.test.messenger.faults.inject({ kind: 'drop', operation: 'deliver', times: Infinity }),
  ];
  const text = `presence writes fail and messages received are lost for ${lastsMs} ms`;
  world.note(`fault: ${text}; then ${player.id} hops, and ${older.label} takes over`, server.label);
  endAfter(world, server, lastsMs, text, faults);
  world.clock.schedule(hopAfterMs, () => {
    const target = otherServer(world, server);
    if (world.healed || !target || !server.live || player.current !== server || player.trading)
      return;
    connect(world, monitor, player, target, 'hops (old connection stays)');
    world.clock.schedule(closeAfterMs, () => {
      if (world.healed || !server.live) return;
      if (server.test.host.has(player.id)) {
        disconnect(world, monitor, server, player, 'old connection closes');
      }
      world.note(`${older.label} loads ${player.id} for ${holdMs} ms`, older.label, player.id);
      loadAndHold(world, older, player.id, holdMs, RETRIES);
    });
  });
}

export function retainedTaken(world: World, monitor: Monitor): void {
  const random = world.random.faults;
  const servers = world.liveServers().filter((server) => playerOn(world, server) !== undefined);
  if (servers.length === 0) return;
  const server = random.pick(servers);
  const player = playerOn(world, server)!;
  // Its presence is gone a beat after its key expires; without handoff, age frees the lock.
  const takeAfterMs = server.plan.handoff ? PRESENCE_LIFETIME_MS + 1000 : world.staleAfterMs + 1000;
  const rejoinAfterMs = takeAfterMs + world.lockWaitMs + 3000;
  const faults = [
    server.test.store.faults.inject({
      kind: 'fail',
      operation: 'update',
      key: world.storeKey(player.id),
      times: Infinity,
    }),
    ...(server.plan.handoff
      ? [server.test.presence.faults.inject({ kind: 'fail', operation: 'set', times: Infinity })]
      : []),
  ];
  world.note(
    `fault: writes of ${player.id} fail${server.plan.handoff ? ' and presence writes fail' : ''} for ${rejoinAfterMs} ms; ${player.id} leaves, joins elsewhere, then rejoins`,
    server.label,
  );
  disconnect(world, monitor, server, player, 'leaves');
  player.current = undefined;
  world.clock.schedule(takeAfterMs, () => {
    const target = otherServer(world, server);
    if (world.healed) return;
    if (target && player.current === undefined) connect(world, monitor, player, target, 'joins');
  });
  world.clock.schedule(rejoinAfterMs, () => {
    for (const fault of faults) fault.remove();
    world.note('its writes land again', server.label);
    if (world.healed) return; // the final phase moved everyone already
    if (server.live && !player.trading) connect(world, monitor, player, server, 'rejoins');
  });
}

export function shutdownMidTrade(
  world: World,
  server: SimServer,
  shutdown: (exitAfterMs: number) => void,
): void {
  if (world.liveServers().length <= 2) return;
  // The next journal write lands (a trade's prepare); the one after (its decision) fails, and
  // the server shuts down as it does: no clock polls for it.
  let journalWrites = 0;
  const fault = server.test.store.faults.inject({
    kind: 'fail',
    operation: 'update',
    matches: (key) => {
      if (!key.startsWith(world.journalPrefix)) return false;
      journalWrites += 1;
      if (journalWrites === 2) {
        world.clock.schedule(0, () => {
          if (server.live) shutdown(EXIT_AFTER_MS);
        });
      }
      return journalWrites >= 2;
    },
    times: Infinity,
  });
  world.note(
    'fault: the decision of its next trade fails to write; it then shuts down',
    server.label,
  );
  world.clock.schedule(SHUTDOWN_ARMED_MS, () => {
    if (journalWrites < 2) fault.remove();
  });
}

function olderCopyOf(world: World, server: SimServer): SimServer | undefined {
  return world.sidesOf(server).find((side) => side.side?.kind === 'older-copy');
}

/** A player on `server` playing, not trading, if any. */
function playerOn(world: World, server: SimServer): SimPlayer | undefined {
  const players = world.players.filter(
    (player) => player.current === server && !player.trading && server.profile(player.id),
  );
  return players.length ? world.random.faults.pick(players) : undefined;
}

function otherServer(world: World, server: SimServer): SimServer | undefined {
  const others = world.liveServers().filter((other) => other !== server);
  return others.length ? world.random.faults.pick(others) : undefined;
}

/** Removes `faults` after `ms` of the backend's clock. */
export function endAfter(
  world: World,
  server: SimServer,
  ms: number,
  text: string,
  faults: ReadonlyArray<{ remove(): void }>,
) {
  world.clock.schedule(ms, () => {
    for (const fault of faults) fault.remove();
    world.note(`${text} ends`, server.label);
  });
}
