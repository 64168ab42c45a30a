/**
 * The operating packages from their tarballs, installed with plain npm into fresh projects:
 * the `datadriver` bin of @datadriver/cli runs (its help, and an inspection of a profile a
 * program left locked on a real redis-server), and @datadriver/opentelemetry type-checks and
 * records a load with the OpenTelemetry SDK 2.x.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { consumerProject, run, Scratch, tarballs } from './consumer-project.js';
import { LOCKED_PROFILE_PROGRAM, TELEMETRY_PROGRAM } from './operate-programs.js';

const scratch = new Scratch();
afterAll(() => scratch.removeAll());

describe('the operating packages installed from their tarballs with npm', () => {
  it('@datadriver/cli: the datadriver bin prints its help and inspects a profile left locked on Redis', async () => {
    const dir = await consumerProject(
      scratch,
      { ...(await tarballs(scratch, ['core', 'redis', 'dynamodb', 'cli'])), ioredis: '5.11.1' },
      LOCKED_PROFILE_PROGRAM,
    );
    const prefix = `packed-cli-${process.pid}:`;
    const env = { ...process.env, REDIS_URL: inject('redisUrl'), PREFIX: prefix };
    await run('node', ['out/main.js'], { cwd: dir, env });
    const bin = join(dir, 'node_modules', '.bin', 'datadriver');
    const help = await run(bin, ['--help'], { cwd: dir });
    expect(help.stdout).toContain('inspect [options] <driver> <key>');
    const { stdout } = await run(
      bin,
      [
        '--redis',
        inject('redisUrl'),
        '--prefix',
        prefix,
        '--json',
        'inspect',
        'PlayerData',
        'user-1',
      ],
      { cwd: dir },
    );
    expect(JSON.parse(stdout)).toMatchObject({
      found: true,
      userIds: ['steam:1'],
      lock: { jobId: 'packed-server', presence: false },
      verdict: { state: 'locked' },
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
