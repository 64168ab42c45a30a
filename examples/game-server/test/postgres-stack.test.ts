/**
 * `--stack postgres`: the fleet's game servers keep store, messages and presence on one
 * PostgreSQL, and a player who joins another server is handed over live, over LISTEN/NOTIFY.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Fleet, startFleet } from '../src/fleet.js';
import { PlayerClient } from '../src/player-client.js';

// The seed's constants a tenth as long: 0.3 s beats, a 1 s presence TTL, 1.5 s lockWait.
const SCALE = 0.1;
const SLACK_MS = 1_000;

describe('a fleet on --stack postgres, as separate processes', () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({
      count: 2,
      firstPort: 0,
      scale: SCALE,
      stack: 'postgres',
      databaseUrl: inject('postgresUrl'),
    });
  });
  afterAll(async () => {
    const { clean } = await fleet.stop();
    expect(clean).toBe(true);
  });

  it('runs every port on PostgreSQL', () => {
    for (const server of fleet.servers) {
      expect(server.output()).toContain('(store, messages and presence: PostgreSQL)');
    }
  });

  it('hands a connected player over to the server they join, with their coins, in a lockWait', async () => {
    const [a, b] = fleet.servers;
    const user = `pg-hop-${Date.now()}`;
    const onA = await PlayerClient.connect(a!.url, user);
    expect(await onA.next('loaded')).toMatchObject({ type: 'loaded', coins: 0 });
    await onA.earn(5);
    const onB = await PlayerClient.connect(b!.url, user);
    const [kicked, loaded] = await Promise.all([onA.next('kicked'), onB.next('loaded')]);
    expect(kicked).toEqual({ type: 'kicked', message: 'You joined another server.' });
    expect(loaded).toMatchObject({ type: 'loaded', coins: 5, server: b!.jobId });
    // The live hand-over: under the seed's 1.5 s lockWait (here scaled), not a lock's expiry.
    expect(loaded.type === 'loaded' && loaded.waitedMs).toBeLessThan(1_500 * SCALE + SLACK_MS);
    await onA.close();
    await onB.close();
  });
});
