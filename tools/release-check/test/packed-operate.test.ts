/**
 * The operating packages from their tarballs, installed with plain npm into fresh projects:
 * @datadriver/postgres with pg 8.11.0, the bottom of its peer range, type-checks and keeps a
 * profile on a real PostgreSQL, which the `datadriver` bin of @datadriver/cli (installed in the
 * same project: one npm install for both) then inspects there; @datadriver/opentelemetry
 * type-checks and records a load with the OpenTelemetry SDK 2.x. (The bin's help and an
 * inspection on Redis, installed from `pnpm pack:local`'s line, are in pack-local.test.ts.)
 */
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { consumerProject, run, Scratch, tarballs } from './consumer-project.js';
import { TELEMETRY_PROGRAM } from './operate-programs.js';
import { POSTGRES_CONSUMER_PROGRAM } from './postgres-consumer-program.js';

const scratch = new Scratch();
afterAll(() => scratch.removeAll());

describe('the operating packages installed from their tarballs with npm', () => {
  it('@datadriver/postgres with pg 8.11.0 keeps a profile on PostgreSQL, and the datadriver bin of @datadriver/cli inspects it there', async () => {
    const dir = await consumerProject(
      scratch,
      {
        ...(await tarballs(scratch, ['core', 'redis', 'dynamodb', 'postgres', 'cli'])),
        ioredis: '5.11.1',
        pg: '8.11.0',
        '@types/pg': '8.11.0',
      },
      { 'postgres.ts': POSTGRES_CONSUMER_PROGRAM },
    );
    // Every peer within its range (pg 8.11.0 for the PostgreSQL adapter): npm reports an invalid one.
    await run('npm', ['ls', '--all'], { cwd: dir });
    const bin = join(dir, 'node_modules', '.bin', 'datadriver');
    const schema = `packed_${process.pid}`;
    const databaseUrl = inject('postgresUrl');
    const kept = await run('node', ['out/postgres.js'], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: databaseUrl, SCHEMA: schema },
    });
    expect(JSON.parse(kept.stdout.trim())).toEqual({ coins: 25, records: 1 });
    const onPostgres = await run(
      bin,
      [
        '--postgres',
        databaseUrl,
        '--postgres-schema',
        schema,
        '--json',
        'inspect',
        'PlayerData',
        'user-1',
      ],
      { cwd: dir },
    );
    expect(JSON.parse(onPostgres.stdout)).toMatchObject({
      found: true,
      verdict: { state: 'takeable' },
    });
  });

  it('@datadriver/opentelemetry: type-checks with the SDK 2.x (and its api 1.9) and records a load', async () => {
    const dir = await consumerProject(
      scratch,
      {
        ...(await tarballs(scratch, ['core', 'opentelemetry'])),
        // What npm installs beside the SDK 2.x, the last line on Node 20: it peers on api < 1.10.
        '@opentelemetry/api': '1.9.1',
        '@opentelemetry/sdk-metrics': '2.12.1',
      },
      TELEMETRY_PROGRAM,
    );
    const { stdout } = await run('node', ['out/main.js'], { cwd: dir });
    expect(JSON.parse(stdout.trim())).toEqual({
      points: 1,
      attributes: {
        'datadriver.driver.name': 'PlayerData',
        'datadriver.outcome': 'loaded',
        'datadriver.load.reason': 'new',
        'datadriver.load.waited_on': 'none',
        'datadriver.load.session': false,
      },
    });
  });
});
