/**
 * The operating packages from their tarballs, installed with plain npm into fresh projects:
 * the `datadriver` bin of @datadriver/cli runs (its help, and an inspection of a profile a
 * program left locked on a real redis-server), and @datadriver/opentelemetry type-checks and
 * records a load with the OpenTelemetry SDK 2.x.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { LOCKED_PROFILE_PROGRAM, TELEMETRY_PROGRAM } from './operate-programs.js';

const run = promisify(execFile);
const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));
const cleanup: string[] = [];
afterAll(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

async function tarballs(names: readonly string[]): Promise<Record<string, string>> {
  const into = await mkdtemp(join(tmpdir(), 'dd-tarballs-'));
  cleanup.push(into);
  const dependencies: Record<string, string> = {};
  for (const name of names) {
    await run('pnpm', ['pack', '--pack-destination', into], { cwd: join(packages, name) });
    const file = (await readdir(into)).find((entry) => entry.startsWith(`datadriver-${name}-`));
    if (!file) throw new Error(`pnpm pack made no tarball for ${name}`);
    dependencies[`@datadriver/${name}`] = `file:${join(into, file)}`;
  }
  return dependencies;
}

async function project(dependencies: Record<string, string>, program: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dd-consumer-'));
  cleanup.push(dir);
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies,
      devDependencies: { typescript: '5.9.3', '@types/node': '20.19.25' },
    }),
  );
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        outDir: 'out',
        types: ['node'],
      },
      include: ['main.ts'],
    }),
  );
  await writeFile(join(dir, 'main.ts'), program);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
  await run('npx', ['tsc', '-p', '.'], { cwd: dir }).catch((error: { stdout?: string }) => {
    throw new Error(`the consumer program does not type-check:\n${error.stdout ?? ''}`);
  });
  return dir;
}

describe('the operating packages installed from their tarballs with npm', () => {
  it('@datadriver/cli: the datadriver bin prints its help and inspects a profile left locked on Redis', async () => {
    const dir = await project(
      { ...(await tarballs(['core', 'redis', 'dynamodb', 'cli'])), ioredis: '5.11.1' },
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
    const dir = await project(
      {
        ...(await tarballs(['core', 'opentelemetry'])),
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
