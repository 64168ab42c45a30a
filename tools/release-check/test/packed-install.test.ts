/**
 * What a user gets from the registry must work: each package is packed as it would be
 * published (`pnpm pack` rewrites workspace ranges), then core plus the Redis adapter (and, in
 * a second project, the Colyseus host with Colyseus itself) are installed from the tarballs
 * with plain npm into a project outside the workspace, where a small TypeScript program
 * type-checks, compiles, and loads, saves and releases a profile.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@datadriver/backends';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { COLYSEUS_CONSUMER_PROGRAM } from './colyseus-consumer-program.js';
import { CONSUMER_PROGRAM } from './consumer-program.js';

const run = promisify(execFile);
const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));

async function pack(name: string, into: string): Promise<string> {
  await run('pnpm', ['pack', '--pack-destination', into], { cwd: join(packages, name) });
  const tarball = (await readdir(into)).find((file) => file.startsWith(`datadriver-${name}-`));
  if (!tarball) throw new Error(`pnpm pack made no tarball for ${name}`);
  return join(into, tarball);
}

describe('the packages installed from their tarballs with npm into a fresh project', () => {
  const cleanup: string[] = [];
  afterAll(async () => {
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
  });

  async function project(
    dependencies: Record<string, string>,
    program: string,
    compilerOptions: Record<string, unknown> = {},
  ): Promise<string> {
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
          ...compilerOptions,
        },
        include: ['main.ts'],
      }),
    );
    await writeFile(join(dir, 'main.ts'), program);
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    // tsc reports type errors on stdout, which a failed execFile does not print.
    await run('npx', ['tsc', '-p', '.'], { cwd: dir }).catch((error: { stdout?: string }) => {
      throw new Error(`the consumer program does not type-check:\n${error.stdout ?? ''}`);
    });
    return dir;
  }

  it('type-checks, loads, saves and releases a profile against a real redis-server', async () => {
    const tarballs = await mkdtemp(join(tmpdir(), 'dd-tarballs-'));
    cleanup.push(tarballs);
    const dir = await project(
      {
        '@datadriver/core': `file:${await pack('core', tarballs)}`,
        '@datadriver/redis': `file:${await pack('redis', tarballs)}`,
        ioredis: '5.11.1',
      },
      CONSUMER_PROGRAM,
    );
    const { stdout } = await run('node', ['out/main.js'], {
      cwd: dir,
      env: { ...process.env, REDIS_URL: inject('redisUrl') },
    });
    expect(JSON.parse(stdout.trim())).toEqual({
      data: { coins: 25, badges: ['first-login'] },
      active: true,
      refused: 'Data.InvalidConfig',
    });
  });

  it("with @datadriver/colyseus: a Colyseus room's onJoin gets the loaded profile, the client's leave releases it", async () => {
    const tarballs = await mkdtemp(join(tmpdir(), 'dd-tarballs-'));
    cleanup.push(tarballs);
    const dir = await project(
      {
        '@datadriver/core': `file:${await pack('core', tarballs)}`,
        '@datadriver/redis': `file:${await pack('redis', tarballs)}`,
        '@datadriver/colyseus': `file:${await pack('colyseus', tarballs)}`,
        '@colyseus/core': '0.16.20',
        '@colyseus/ws-transport': '0.16.5',
        'colyseus.js': '0.16.22',
        ioredis: '5.11.1',
      },
      COLYSEUS_CONSUMER_PROGRAM,
      // Colyseus 0.16's own declarations do not pass a strict check (its templates set this).
      { skipLibCheck: true },
    );
    const { stdout } = await run('node', ['out/main.js'], {
      cwd: dir,
      env: { ...process.env, REDIS_URL: inject('redisUrl'), PORT: String(await freePort()) },
    });
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '')).toEqual({
      coins: 3,
      jobIsProcess: true,
      kickCode: 4100,
      unreleased: [],
    });
  });
});
