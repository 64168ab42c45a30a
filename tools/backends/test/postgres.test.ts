import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BackendUnavailableError,
  findPostgresBin,
  type PostgresBackend,
  startPostgres,
} from '../src/index.js';
import { isListening, processesMentioning } from './helpers.js';

const HOST = '127.0.0.1';

/** One statement through the server's own psql, over TCP as the URL says. */
function psql(url: string, sql: string): string {
  const bin = findPostgresBin();
  if (!bin) throw new Error('no psql');
  return execFileSync(join(bin, 'psql'), [url, '-XAtq', '-c', sql], { encoding: 'utf8' }).trim();
}

describe('startPostgres (own server)', () => {
  let postgres: PostgresBackend;
  let folder = '';
  afterAll(() => postgres?.stop());

  it('initdbs a fresh cluster and serves SQL on a loopback port', async () => {
    const started = Date.now();
    postgres = await startPostgres({ env: {} });
    console.info(`postgres ready in ${Date.now() - started} ms`);
    expect(postgres.external).toBe(false);
    expect(postgres.url).toBe(`postgres://postgres@${HOST}:${postgres.port}/postgres`);
    expect(psql(postgres.url, 'select 1 + 1')).toBe('2');
    folder = psql(postgres.url, 'show data_directory');
    expect(folder).toMatch(/dd-postgres-/);
  });

  it('serves each session from a process at a higher priority than ours, when we are root', () => {
    // Read by the session's own process while it lives: a backend exits once psql disconnects,
    // so reading /proc after psql returned raced that exit (ENOENT in CI).
    const stat = psql(postgres.url, "select pg_read_file('/proc/' || pg_backend_pid() || '/stat')");
    const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    expect(nice).toBe(process.getuid?.() === 0 ? -5 : 0);
  });

  it('kill() takes it down and restart() brings it back on the same port with its data', async () => {
    psql(postgres.url, 'create table kept (n int); insert into kept values (7)');
    await postgres.kill();
    expect(await isListening(HOST, postgres.port)).toBe(false);
    await postgres.restart();
    expect(psql(postgres.url, 'select n from kept')).toBe('7');
  });

  it('stop() leaves nothing listening, no postgres process and no data folder', async () => {
    await postgres.stop();
    await postgres.stop(); // twice is fine
    expect(await isListening(HOST, postgres.port)).toBe(false);
    expect(processesMentioning(`-p ${postgres.port}`)).toEqual([]);
    expect(existsSync(folder)).toBe(false);
  });
});

describe('startPostgres with settings', () => {
  let postgres: PostgresBackend | undefined;
  afterAll(() => postgres?.stop());

  it('starts the server with them, and again after restart()', async () => {
    const settings = { shared_preload_libraries: 'pg_stat_statements', work_mem: '8MB' };
    postgres = await startPostgres({ env: {}, settings });
    expect(psql(postgres.url, 'show shared_preload_libraries')).toBe('pg_stat_statements');
    await postgres.restart();
    expect(psql(postgres.url, 'show work_mem')).toBe('8MB');
  });
});

describe('startPostgres (DATABASE_URL)', () => {
  it('uses the given server and refuses to kill or restart it', async () => {
    const url = 'postgres://app@db.example:6543/game';
    const postgres = await startPostgres({ env: { DATABASE_URL: url } });
    expect(postgres).toMatchObject({ external: true, url, port: 6543 });
    await expect(postgres.kill()).rejects.toThrow(/DATABASE_URL.*backend\.external/);
    await expect(postgres.restart()).rejects.toThrow(/DATABASE_URL/);
    await postgres.stop(); // a no-op
  });
});

describe('findPostgresBin', () => {
  const root = mkdtempSync(join(tmpdir(), 'dd-pgbin-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const fakeMajor = (major: string) => {
    const bin = join(root, major, 'bin');
    mkdirSync(bin, { recursive: true });
    for (const program of ['initdb', 'postgres']) {
      writeFileSync(join(bin, program), '#!/bin/sh\n', { mode: 0o755 });
    }
    return bin;
  };

  it("finds Debian's newest major off PATH, and nothing where there is none", () => {
    expect(findPostgresBin({ PATH: '/nonexistent' }, root)).toBeUndefined();
    fakeMajor('9.6');
    const newest = fakeMajor('15');
    fakeMajor('13');
    expect(findPostgresBin({ PATH: '/nonexistent' }, root)).toBe(newest);
  });

  it('prefers an initdb on PATH', () => {
    const own = fakeMajor('own');
    expect(findPostgresBin({ PATH: own }, root)).toBe(own);
  });
});

describe('startPostgres without PostgreSQL', () => {
  const nowhere = { env: { PATH: '/nonexistent' }, debianRoot: '/nonexistent' };

  it('fails with BackendUnavailableError saying how to install it', async () => {
    const failure = startPostgres(nowhere);
    await expect(failure).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failure).rejects.toThrow(/neither on PATH nor in \/usr\/lib\/postgresql/);
    await expect(failure).rejects.toThrow(/apt-get install -y postgresql.*DATABASE_URL/);
  });

  it('points CI at its CI script', async () => {
    const failure = startPostgres({ ...nowhere, env: { ...nowhere.env, CI: 'true' } });
    await expect(failure).rejects.toThrow(/CI must provide it/);
  });
});
