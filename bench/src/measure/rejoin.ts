/**
 * Same-server rejoins on all-Redis. "During a leave save": the player leaves and joins again in
 * the same tick, while the leave save is on the wire; the load waits for that save and loads
 * what it wrote. "After a failed leave save": the leave save fails (an injected failure, as a
 * backend outage would), then the player joins again and the retained profile is adopted.
 * Each is timed from the join to `load.loaded`, with the data checked, against one save.
 */
import { FaultyStore } from '@datadriver/core/testing';
import type { BenchConfig } from '../config.js';
import { timed } from '../stats.js';
import {
  type Coins,
  type InProcessServer,
  nextEvent,
  redisPorts,
  startServer,
} from './in-process-server.js';

export interface RejoinResult {
  readonly duringSave: number[];
  readonly afterFailedSave: number[];
  /** One save of a loaded profile on the same store (ms): the seed's "about one save". */
  readonly save: number[];
  /** Rejoins that really waited for the leave save (the rest found it landed already). */
  readonly waitedForSave: number;
}

export async function measureRejoin(redisUrl: string, config: BenchConfig): Promise<RejoinResult> {
  const ports = redisPorts(redisUrl);
  const store = new FaultyStore(ports.store);
  const server = startServer({ jobId: `bench-rejoin-${process.pid}`, ports: { ...ports, store } });
  try {
    const during = await rejoinsDuringSave(server, config);
    const afterFailedSave = await rejoinsAfterFailedSave(server, store, config);
    const save = await saves(server, config);
    return { ...during, afterFailedSave, save };
  } finally {
    await server.close();
    await ports.close();
  }
}

async function joined(server: InProcessServer, key: string): Promise<number> {
  const driver = server.drivers[0]!;
  const event = await nextEvent(driver, key, ['load.loaded', 'load.failed'], () =>
    server.host.join(key),
  );
  if (event.type === 'load.failed') throw event.error;
  return driver.profile(key)!.data.coins;
}

async function rejoinsDuringSave(server: InProcessServer, config: BenchConfig) {
  const driver = server.drivers[0]!;
  const key = `rejoin-save-${process.pid}`;
  const samples: number[] = [];
  let waitedForSave = 0;
  await joined(server, key);
  for (let trial = 0; trial < config.warmUp + config.rejoins; trial++) {
    driver.profile(key)!.data.coins = trial + 1;
    let waited = false;
    const stop = driver.on((event) => {
      if (event.type === 'load.waiting' && event.key === key) waited = true;
    });
    server.host.leave(key); // the leave save starts now
    const took = await timed(async () => {
      const coins = await joined(server, key);
      if (coins !== trial + 1) throw new Error(`rejoin loaded ${coins} coins, not ${trial + 1}`);
    });
    stop();
    if (trial < config.warmUp) continue;
    samples.push(took);
    if (waited) waitedForSave++;
  }
  server.host.leave(key);
  return { duringSave: samples, waitedForSave };
}

async function rejoinsAfterFailedSave(
  server: InProcessServer,
  store: FaultyStore,
  config: BenchConfig,
): Promise<number[]> {
  const driver = server.drivers[0]!;
  const key = `rejoin-adopt-${process.pid}`;
  const samples: number[] = [];
  await joined(server, key);
  for (let trial = 0; trial < config.warmUp + config.rejoins; trial++) {
    driver.profile(key)!.data.coins = trial + 1;
    store.faults.inject({ kind: 'fail', operation: 'update', times: 1 });
    await nextEvent(driver, key, ['profile.release-failed'], () => server.host.leave(key));
    const adopted = nextEvent(driver, key, ['profile.adopted']);
    const took = await timed(async () => {
      const coins = await joined(server, key);
      if (coins !== trial + 1) throw new Error(`adoption kept ${coins} coins, not ${trial + 1}`);
    });
    const outcome = (await adopted).outcome;
    if (outcome !== 'kept') throw new Error(`adoption ended ${outcome}, not kept`);
    if (trial >= config.warmUp) samples.push(took);
  }
  server.host.leave(key);
  return samples;
}

/** A plain save of a loaded profile, the unit the rejoins are held against. */
async function saves(server: InProcessServer, config: BenchConfig): Promise<number[]> {
  const driver = server.drivers[0]!;
  const key = `rejoin-unit-${process.pid}`;
  await joined(server, key);
  const profile = driver.profile(key)!;
  const samples: number[] = [];
  for (let trial = 0; trial < config.warmUp + config.rejoins; trial++) {
    (profile.data as Coins).coins = trial;
    const took = await timed(() => profile.save());
    if (trial >= config.warmUp) samples.push(took);
  }
  server.host.leave(key);
  return samples;
}
