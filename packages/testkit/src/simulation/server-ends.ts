/**
 * A whole server ends, with every driver it runs: a crash (dead at once: no write, beat or
 * message leaves it again) or a graceful shutdown (its drivers close, then the process exits).
 * Two servers always stay up, so that players have somewhere to go.
 */
import type { Monitor } from './monitor.js';
import { driversOf } from './side-drivers.js';
import type { SimServer, World } from './world.js';

export function crash(world: World, server: SimServer, monitor: Monitor): void {
  if (world.liveServers().length <= 2) return;
  // Dead: no write, beat or message leaves it again. Stopping its handoff only ends the
  // timers of a process that no longer runs (what TestServer.stop does for a crashed one).
  for (const driver of driversOf(world, server)) {
    driver.test.crash();
    void driver.test.stop();
  }
  server.status = 'crashed';
  monitor.count('crash');
  world.note('CRASH', server.label);
}

/** A graceful stop (close with a 1 s deadline), then the process exits `exitAfterMs` later. */
export function shutdown(world: World, server: SimServer, exitAfterMs = 0): void {
  if (world.liveServers().length <= 2 || !server.live) return;
  server.status = 'stopped';
  world.note('shuts down', server.label);
  const drivers = driversOf(world, server);
  const exit = () => {
    for (const driver of drivers) driver.test.crash();
    server.status = 'crashed';
    world.note('process exits', server.label);
  };
  void Promise.all(drivers.map((driver) => driver.test.stop())).then(() => {
    if (exitAfterMs === 0) exit();
    else world.clock.schedule(exitAfterMs, exit);
  });
}
