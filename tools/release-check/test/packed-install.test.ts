/**
 * What a user gets from the registry must work: each package is packed as it would be
 * published (`pnpm pack` rewrites workspace ranges), then core plus the Redis adapter are
 * installed from the tarballs with plain npm into a project outside the workspace, where a
 * small TypeScript program type-checks, compiles, and loads, saves and releases a profile.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { CONSUMER_PROGRAM } from './consumer-program.js';

const run = promisify(execFile);
const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));

async function pack(name: string, into: string): Promise<string> {
  await run('pnpm', ['pack', '--pack-destination', into], { cwd: join(packages, name) });
  const tarball = (await readdir(into)).find((file) => file.startsWith(`datadriver-${name}-`));
  if (!tarball) throw new Error(`pnpm pack made no tarball for ${name}`);
  return join(into, tarball);
}

describe('core plus the Redis adapter, installed from their tarballs with npm', () => {
  const cleanup: string[] = [];
  afterAll(async () => {
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
  });

  it('type-checks, loads, saves and releases a profile against a real redis-server', async () => {
    const tarballs = await mkdtemp(join(tmpdir(), 'dd-tarballs-'));
    const project = await mkdtemp(join(tmpdir(), 'dd-consumer-'));
    cleanup.push(tarballs, project);
    const core = await pack('core', tarballs);
    const redis = await pack('redis', tarballs);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: {
          '@datadriver/core': `file:${core}`,
          '@datadriver/redis': `file:${redis}`,
          ioredis: '5.11.1',
        },
        devDependencies: { typescript: '5.9.3', '@types/node': '20.19.25' },
      }),
    );
    await writeFile(
      join(project, 'tsconfig.json'),
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
    await writeFile(join(project, 'main.ts'), CONSUMER_PROGRAM);
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
    await run('npx', ['tsc', '-p', '.'], { cwd: project });
    const { stdout } = await run('node', ['out/main.js'], {
      cwd: project,
      env: { ...process.env, REDIS_URL: inject('redisUrl') },
    });
    expect(JSON.parse(stdout.trim())).toEqual({
      data: { coins: 25, badges: ['first-login'] },
      active: true,
      refused: 'Data.InvalidConfig',
    });
  });
});
