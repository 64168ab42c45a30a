/**
 * The CLI on one PostgreSQL (`--postgres`, `--postgres-schema`), against a real server: inspect and
 * servers answer at once from the beats' expiry on the database's clock, with each beat's age, read-only commands leave
 * every row of the three tables as it was, a wrong schema is named with the schemas that have
 * the tables, and erase hands a live holder's profile over through LISTEN/NOTIFY.
 */
import {
  ensureSchema,
  PostgresMessenger,
  PostgresPresence,
  PostgresStore,
} from '@datadriver/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Beat, EraseResult, Inspection } from '../src/index.js';
import { cli, json } from './support/cli.js';
import { type GameServer, gameServer } from './support/game-server.js';
import { type MessageHandler, messageRoundTrip } from './support/message-round-trip.js';
import { uniquePrefix } from './support/names.js';
import { settledRead } from './support/settled-read.js';

const fast = { beatSeconds: 0.2, presenceTtlSeconds: 1 };
const schema = `cli_${process.pid}_${Date.now().toString(36)}`;
let pool: pg.Pool;
const servers: GameServer[] = [];

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject('postgresUrl'), max: 8 });
  await ensureSchema(pool, { schema });
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool?.end();
});

const args = () => [
  '--postgres',
  inject('postgresUrl'),
  '--postgres-schema',
  schema,
  '--presence-ttl',
  '1',
];

async function server(jobId: string, onMessage?: MessageHandler): Promise<GameServer> {
  const started = await gameServer({
    ...(onMessage ? { onMessage } : {}),
    url: inject('redisUrl'), // unused: every port below is on PostgreSQL
    prefix: uniquePrefix('pg-unused'),
    jobId,
    timings: fast,
    store: new PostgresStore({ pool, schema, versions: { keep: 20 } }),
    presence: new PostgresPresence({ pool, schema }),
    messenger: new PostgresMessenger({ pool, schema }),
  });
  servers.push(started);
  return started;
}

/** Every row of the adapter's three tables, in a stable order. */
async function snapshot(): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (const table of ['records', 'record_versions', 'presence']) {
    const result = await pool.query(`SELECT * FROM "${schema}".${table} ORDER BY 1, 2`);
    rows.push(table, ...result.rows);
  }
  return rows;
}

describe('on PostgreSQL', () => {
  it('inspect reads a live holder alive with its beat age, and a crashed one stopped, without watching', async () => {
    const live = await server('pg-a');
    await live.join('u1');
    live.driver.profile('u1')!.data.coins = 30;
    await live.driver.profile('u1')!.save();
    const crashed = await server('pg-b');
    await crashed.join('u2');
    await crashed.crash();
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // its last beat expires (1 s)
    const alive = json<Inspection>(await cli([...args(), '--json', 'inspect', 'PlayerData', 'u1']));
    expect(alive).toMatchObject({
      lock: { jobId: 'pg-a', presence: true },
      holder: { answer: 'alive' },
      verdict: { state: 'locked' },
    });
    expect(alive.holder).not.toHaveProperty('watchedMs');
    // A beat every 0.2 s into a 1 s TTL: the age read from the database is within the TTL.
    const { beatAgeMs } = alive.holder as { beatAgeMs: number };
    expect(beatAgeMs).toBeGreaterThanOrEqual(0);
    expect(beatAgeMs).toBeLessThan(1_000);
    expect(alive.versions).toHaveLength(1);
    const stopped = json<Inspection>(
      await cli([...args(), '--json', 'inspect', 'PlayerData', 'u2']),
    );
    expect(stopped.holder).not.toHaveProperty('watchedMs');
    expect(stopped).toMatchObject({
      holder: { answer: 'stopped' },
      verdict: { state: 'holder-stopped', whenProvenStopped: { kind: 'take', reason: 'stolen' } },
    });
  });

  it('servers: those beating now, with the expiry the database keeps (PostgresPresence.scan)', async () => {
    const listed = json<{ servers: Beat[] }>(await cli([...args(), '--json', 'servers']));
    expect(listed.servers.map((beat) => beat.jobId)).toEqual(['pg-a']);
    const [beat] = listed.servers;
    expect(beat).not.toHaveProperty('watchedMs');
    expect(beat!.expiresInMs).toBeGreaterThan(0);
    expect(beat!.expiresInMs).toBeLessThanOrEqual(1_000);
    expect(beat!.beatAgeMs).toBe(1_000 - beat!.expiresInMs!);
  });

  it('read-only commands leave every row of the three tables as it was; find-user scans the store', async () => {
    const quiet = await server('pg-c');
    await quiet.join('u3');
    quiet.driver.profile('u3')!.addUserId('steam:3');
    await quiet.driver.profile('u3')!.save();
    await quiet.crash();
    for (const other of servers.slice(0, 1)) await other.crash();
    const before = await settledRead(snapshot);
    for (const command of [
      ['inspect', 'PlayerData', 'u3', '--data'],
      ['servers'],
      ['versions', 'PlayerData', 'u1', '--data'],
      ['find-user', 'steam:3'],
    ]) {
      const run = await cli([...args(), '--json', ...command]);
      expect(run.code, run.stdout).toBe(0);
    }
    expect(await snapshot()).toEqual(before);
    const found = json<{ matches: Array<{ key: string }> }>(
      await cli([...args(), '--json', 'find-user', 'steam:3']),
    );
    expect(found.matches.map((match) => match.key)).toEqual(['u3']);
  });

  it('a wrong schema is Data.Misconfigured, naming the schemas there; a dead server Data.Unavailable; --redis beside it is refused', async () => {
    const wrong = await cli([
      '--postgres',
      inject('postgresUrl'),
      '--postgres-schema',
      'nope',
      'servers',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^Data\.Misconfigured: --postgres-schema "nope": no DataDriver tables \(records, record_versions, presence missing\) at postgres:.* schema "nope"; schemas with a records table: .*/,
    );
    expect(wrong.stderr).toContain(schema);
    const dead = await cli(['--postgres', 'postgres://postgres@127.0.0.1:1/postgres', 'servers']);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/^Data\.Unavailable: could not reach PostgreSQL at /);
    const both = await cli([...args(), '--redis', inject('redisUrl'), 'servers']);
    expect(both.stderr).toMatch(/^Data\.InvalidArgument: --postgres keeps records, presence/);
  });

  it('erase: a live holder hands over through LISTEN/NOTIFY, then record and versions go', async () => {
    const holder = await server('pg-d');
    await holder.join('u4');
    holder.driver.profile('u4')!.data.coins = 12;
    await holder.driver.profile('u4')!.save();
    const result = json<EraseResult>(
      await cli([...args(), '--json', 'erase', 'PlayerData', 'u4', '--yes']),
    );
    expect(result).toMatchObject({
      erased: true,
      versions: 1,
      holder: 'pg-d',
      holderAnswer: 'alive',
      reason: 'unlocked',
    });
    expect(holder.host.kicks).toEqual([
      { player: 'u4', message: 'Support is working on your data. Please rejoin in a moment.' },
    ]);
    const store = new PostgresStore({ pool, schema, versions: {} });
    expect(await store.get('PlayerData/u4')).toBeUndefined();
    expect(await store.versions!.list('PlayerData/u4')).toEqual([]);
  });

  it('messages: send reaches a live holder through LISTEN/NOTIFY; inbox lists, inspect counts and --drop removes one that always throws', async () => {
    await messageRoundTrip(args(), (onMessage) => server('pg-m', onMessage), 'm1');
  });
});
