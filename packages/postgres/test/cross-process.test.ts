/**
 * Real server processes sharing the run's PostgreSQL: each a fixture (test/fixtures/server.mjs)
 * with its own jobId, pool, listening connection, driver and MemoryHost, driven over IPC.
 */
import { fileURLToPath } from 'node:url';
import { ForkedServer } from '@datadriver/backends';
import type { ServerPorts } from '@datadriver/testkit';
import { CHAIN, describeProbe, probed } from '@datadriver/testkit/cluster';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresMessenger, PostgresPresence, PostgresStore } from '../src/index.js';
import { freshSchema, Pools, postgresUrl, quiet } from './support/postgres.js';

// Real seconds per unscaled second: a 300 ms beat and a 1 s presence TTL.
const scale = 0.1;
const beatMs = 3_000 * scale;
const parkMaxMs = 2_000 * scale;
const scaledMs = (ms: number) => ms * scale;

const pools = new Pools();
const driverName = `PlayerData-${process.pid}`;
const servers: ForkedServer[] = [];
const script = fileURLToPath(new URL('./fixtures/server.mjs', import.meta.url));
let raw: pg.Pool;
let schema: string;
/** This process's own ports: a probe times the machine beside the wait. */
let probePorts: ServerPorts & { messenger: PostgresMessenger };

async function start(label: string): Promise<ForkedServer> {
  const server = await ForkedServer.start({
    script,
    jobId: `${schema}-${label}`,
    env: {
      DATABASE_URL: postgresUrl(),
      DRIVER_NAME: driverName,
      ADAPTER_MODULE: inject('adapterModule'),
      SCHEMA: schema,
      DD_SCALE: String(scale),
    },
  });
  servers.push(server);
  return server;
}

/** The stored profile record of `player`, read past every server. */
async function record(player: string) {
  const { rows } = await raw.query<{ record: string }>(
    `SELECT record FROM "${schema}".records WHERE key = $1`,
    [Buffer.from(`${driverName}/${player}`, 'utf8')],
  );
  return rows[0] && JSON.parse(rows[0].record);
}

beforeAll(async () => {
  raw = pools.open();
  schema = await freshSchema(raw, 'processes');
  const pool = pools.open();
  probePorts = {
    store: new PostgresStore({ pool, schema, logger: quiet }),
    presence: new PostgresPresence({ pool, schema }),
    messenger: new PostgresMessenger({ pool, schema, logger: quiet }),
  };
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await probePorts?.messenger.close();
  await pools.endAll();
});

describe('servers in separate processes on one PostgreSQL', () => {
  it('takes over from a server killed with SIGKILL after presence expiry plus one beat, loading its last save', async () => {
    const [c, b] = await Promise.all([start('C'), start('B')]);
    let from = c.messages.length;
    await c.request('join', { player: 'p2' });
    expect((await c.settled('p2', 5_000, from)).type).toBe('load.loaded');
    await c.request('setCoins', { player: 'p2', coins: 5 });
    await c.request('save', { player: 'p2' });
    await c.request('setCoins', { player: 'p2', coins: 9 }); // dies with the process
    await c.kill('SIGKILL');
    // The database expires C's last beat by its own clock: that is when C reads as stopped.
    const { rows } = await raw.query<{ remaining_ms: string }>(
      `SELECT extract(epoch FROM expires_at - now()) * 1000 AS remaining_ms
         FROM "${schema}".presence WHERE key = $1`,
      [Buffer.from(c.jobId, 'utf8')],
    );
    const remainingMs = Number(rows[0]?.remaining_ms);
    const expiresAt = Date.now() + Math.max(remainingMs, 0);
    expect(remainingMs).toBeGreaterThan(0);
    expect(remainingMs).toBeLessThanOrEqual(scaledMs(10_000));
    from = b.messages.length;
    const { value: loaded, figures } = await probed(
      probePorts,
      async () => {
        await b.request('join', { player: 'p2' });
        return b.settled('p2', 10_000, from);
      },
      { chain: CHAIN, floorMs: scaledMs(200), capMs: beatMs - 1 },
    );
    expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
    expect(await b.request('profile', { player: 'p2' })).toMatchObject({ coins: 5 });
    expect((await record('p2')).meta.lock.jobId).toBe(b.jobId);
    expect(b.warnings).toContain(
      `took the lock of p2 from server ${c.jobId}, which stopped beating presence.`,
    );
    // Two empty reads a beat apart, the first no earlier than the expiry.
    expect(loaded.time).toBeGreaterThanOrEqual(expiresAt + beatMs - 5);
    console.info(`takeover ${loaded.time - expiresAt} ms after C's presence expired`);
    const bound = expiresAt + beatMs + parkMaxMs + figures.slackMs;
    expect(loaded.time, describeProbe('the takeover', figures)).toBeLessThanOrEqual(bound);
  });
});
