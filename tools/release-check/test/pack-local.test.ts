/**
 * `pnpm pack:local`, the install path before the packages are on npm: it packs every published
 * package into a folder and prints, for each, the whole npm command a project of your own needs.
 * Run as printed in fresh projects, the Redis adapter's line installs core and the adapter, where
 * a program type-checks and runs against a real redis-server, and the CLI's line installs the
 * `datadriver` command (it needs the core, Redis, DynamoDB and PostgreSQL tarballs too), which
 * prints its help and inspects a profile a program left locked on a real redis-server.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PUBLISHED } from '../scripts/published.mjs';
import { CONSUMER_PROGRAM } from './consumer-program.js';
import { run, Scratch } from './consumer-project.js';
import { LOCKED_PROFILE_PROGRAM } from './operate-programs.js';

const PACK_LOCAL = fileURLToPath(new URL('../scripts/pack-local.mjs', import.meta.url));
const scratch = new Scratch();
afterAll(() => scratch.removeAll());

describe('pnpm pack:local', () => {
  it('packs every published package and prints each one’s whole npm install line; the Redis adapter’s and the CLI’s work as printed', async () => {
    const into = await scratch.dir('dd-pack-local-');
    const { stdout } = await run(process.execPath, [PACK_LOCAL, '--out', into]);
    const listed = [...stdout.matchAll(/^ {2}(@datadriver\/[\w-]+)@\S+ +(\S+\.tgz)$/gm)];
    expect(listed.map((match) => match[1])).toEqual(PUBLISHED.map((name) => `@datadriver/${name}`));
    for (const [, , tarball] of listed) expect(existsSync(tarball!)).toBe(true);
    const lines = new Map(
      [...stdout.matchAll(/^(@datadriver\/[\w-]+)[^\n]*:\n {2}(npm install .+)$/gm)].map(
        (match) => [match[1]!, match[2]!],
      ),
    );
    expect([...lines.keys()]).toEqual(PUBLISHED.map((name) => `@datadriver/${name}`));
    const tarball = (name: string) => join(into, `datadriver-${name}-0.0.0.tgz`);
    const install = lines.get('@datadriver/redis');
    expect(install).toBe(`npm install ${tarball('core')} ${tarball('redis')} ioredis@5`);
    const installCli = lines.get('@datadriver/cli');
    expect(installCli).toBe(
      `npm install ${['core', 'redis', 'dynamodb', 'postgres', 'cli'].map(tarball).join(' ')}`,
    );

    const project = await scratch.dir('dd-pack-local-project-');
    await run('npm', ['init', '-y'], { cwd: project });
    await run('npm', ['pkg', 'set', 'type=module'], { cwd: project });
    const [npm, ...args] = install!.split(' ');
    await run(npm!, [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
    // Every peer within its range (a bare `ioredis` would be its next major: ELSPROBLEMS).
    await run('npm', ['ls', '--all'], { cwd: project });
    await writeFile(join(project, 'main.ts'), CONSUMER_PROGRAM);
    await writeFile(join(project, 'locked.ts'), LOCKED_PROFILE_PROGRAM);
    // This package's TypeScript, on the project's installed declarations.
    const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
    const types = fileURLToPath(new URL('../node_modules/@types', import.meta.url));
    const flags = ['--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext'];
    await run(
      tsc,
      [
        ...flags,
        '--strict',
        ...['--typeRoots', types, '--types', 'node', '--outDir', 'out', 'main.ts', 'locked.ts'],
      ],
      { cwd: project },
    ).catch((error: { stdout?: string }) => {
      throw new Error(`the program does not type-check:\n${error.stdout ?? ''}`);
    });
    const ran = await run('node', ['out/main.js'], {
      cwd: project,
      env: { ...process.env, REDIS_URL: inject('redisUrl') },
    });
    expect(JSON.parse(ran.stdout.trim())).toMatchObject({ data: { coins: 25 }, active: true });

    // The CLI's line, in a project of its own: nothing installed before can stand in for a
    // tarball the line forgot.
    const cliProject = await scratch.dir('dd-pack-local-cli-');
    await run('npm', ['init', '-y'], { cwd: cliProject });
    const [npmAgain, ...cliArgs] = installCli!.split(' ');
    await run(npmAgain!, [...cliArgs, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: cliProject,
    });
    const help = await run('npx', ['datadriver', '--help'], { cwd: cliProject });
    expect(help.stdout).toContain('inspect [options] <driver> <key>');
    // And it inspects a profile a program on the Redis adapter's install left locked.
    const prefix = `pack-local-cli-${process.pid}:`;
    await run('node', ['out/locked.js'], {
      cwd: project,
      env: { ...process.env, REDIS_URL: inject('redisUrl'), PREFIX: prefix },
    });
    const inspected = await run(
      'npx',
      [
        'datadriver',
        '--redis',
        inject('redisUrl'),
        '--prefix',
        prefix,
        '--json',
        'inspect',
        'PlayerData',
        'user-1',
      ],
      { cwd: cliProject },
    );
    expect(JSON.parse(inspected.stdout)).toMatchObject({
      found: true,
      userIds: ['steam:1'],
      lock: { jobId: 'packed-server', presence: false },
      verdict: { state: 'locked' },
    });
  });

  it('--help, and a bad option refused', async () => {
    expect((await run(process.execPath, [PACK_LOCAL, '--help'])).stdout).toMatch(
      /^Usage: pnpm pack:local/,
    );
    const refused = await run(process.execPath, [PACK_LOCAL, '--into', 'x']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain(
      'pnpm pack:local: unknown option --into',
    );
  });
});
