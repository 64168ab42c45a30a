/**
 * A release that really publishes: on a throwaway copy of the repository (with one more
 * changeset, this test's own), `changeset version` writes the versions and the changelogs
 * (each changeset's text in the changelog of every package it names) and `changeset publish`
 * publishes every package to a local npm registry (Verdaccio, no uplinks) and tags the release.
 * A fresh project then installs core, the Redis adapter and the CLI from that registry by name
 * (everything else from npm's own registry, as a user's project would), with the NEWEST
 * TypeScript and @types/node npm serves. There README's own steps are followed: the tsconfig.json
 * its sh block writes, `npx tsc`, `node two-servers.js` (no server name: it plays both servers,
 * and A's kicked coins are B's loaded ones); the quick start compiles with the same options and
 * runs. Both programs also compile with the workspace's pinned TypeScript and @types/node (whose
 * output packed-install.test.ts runs). The `datadriver` bin prints its help.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PUBLISHED } from '../scripts/published.mjs';
import { run, Scratch } from './consumer-project.js';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';
import { README_QUICK_START, README_TSCONFIG, README_TWO_SERVERS } from './readme-program.js';
import { commitAll, copyForRelease, git } from './release-copy.js';

const CHANGESET = fileURLToPath(new URL('../../../node_modules/.bin/changeset', import.meta.url));
const PINNED_TSC = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
const PINNED_TYPES = fileURLToPath(new URL('../node_modules/@types', import.meta.url));
const PACKAGES = PUBLISHED.map((name) => `@datadriver/${name}`);
const OWN_CHANGESET = `release-check: a patch published to the local registry (${process.pid})`;

/** A pending changeset: the packages it names and the first line of its text. */
interface Pending {
  readonly file: string;
  readonly packages: readonly string[];
  readonly firstLine: string;
}

async function pendingChangesets(dir: string): Promise<Pending[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.md') && file !== 'README.md');
  const pending: Pending[] = [];
  for (const file of files) {
    const [, front = '', body = ''] =
      /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(await readFile(join(dir, file), 'utf8')) ?? [];
    const packages = [...front.matchAll(/^["']?(@datadriver\/[\w-]+)["']?\s*:/gm)].map(
      (m) => m[1]!,
    );
    pending.push({ file, packages, firstLine: body.trim().split('\n')[0]!.trim() });
  }
  return pending;
}

const scratch = new Scratch();
let registry: LocalRegistry | undefined;
afterAll(async () => {
  await registry?.stop();
  await scratch.removeAll();
});

describe('a release through a local npm registry', () => {
  // Every step of a release, and an npm install with the CLI's AWS SDK: bounded, not short.
  it('changeset version writes every changeset into the changelogs, changeset publish publishes and tags every package, and a fresh project installs core, the Redis adapter and the CLI by name, compiles README’s programs with README’s tsconfig.json on the pinned and the newest TypeScript, and runs the newest’s output: the two servers hand a player over with every coin', async () => {
    registry = await startLocalRegistry(await scratch.dir('dd-registry-'));
    const repo = await scratch.dir('dd-release-');
    // `registry=` too: whatever a package's settings say, nothing here publishes to npmjs.org.
    await copyForRelease(repo, `registry=${registry.url}\n${registry.npmrc}`);
    await writeFile(
      join(repo, '.changeset', 'release-check.md'),
      `---\n${PACKAGES.map((name) => `"${name}": patch`).join('\n')}\n---\n\n${OWN_CHANGESET}\n`,
    );
    const pending = await pendingChangesets(join(repo, '.changeset'));

    await run(CHANGESET, ['version'], { cwd: repo });
    const versions = new Set<string>();
    for (const name of PUBLISHED) {
      versions.add(
        JSON.parse(await readFile(join(repo, 'packages', name, 'package.json'), 'utf8')).version,
      );
    }
    expect(versions.size).toBe(1); // one fixed group: one version
    const [version] = [...versions];
    expect(version).not.toBe('0.0.0');
    for (const changeset of pending) {
      for (const name of changeset.packages) {
        const changelog = await readFile(
          join(repo, 'packages', name.replace('@datadriver/', ''), 'CHANGELOG.md'),
          'utf8',
        );
        expect(changelog, `${changeset.file} in ${name}'s CHANGELOG.md`).toContain(
          changeset.firstLine,
        );
        expect(changelog).toContain(`## ${version}`);
      }
    }
    expect(await pendingChangesets(join(repo, '.changeset'))).toEqual([]);
    await commitAll(repo, `release ${version}`);

    const published = await run(CHANGESET, ['publish'], {
      cwd: repo,
      // changesets asks `npm info` here, and hands it to each `pnpm publish`.
      env: { ...process.env, 'npm_config_@datadriver:registry': registry.url },
    });
    for (const name of PACKAGES)
      expect(published.stderr + published.stdout).toContain(`${name}@${version}`);
    for (const name of PACKAGES) {
      // The registry's own answer (the packument npm reads), not changesets' word for it.
      const packument = (await (
        await fetch(`${registry.url}${name.replace('/', '%2f')}`)
      ).json()) as {
        'dist-tags': Record<string, string>;
      };
      expect(packument['dist-tags'].latest, name).toBe(version);
    }
    expect((await git(repo, 'tag', '--list')).trim().split('\n').sort()).toEqual(
      PACKAGES.map((name) => `${name}@${version}`).sort(),
    );

    const project = await scratch.dir('dd-from-registry-');
    await writeFile(join(project, '.npmrc'), `@datadriver:registry=${registry.url}\n`);
    await run('npm', ['init', '-y'], { cwd: project });
    await run('npm', ['pkg', 'set', 'type=module'], { cwd: project });
    await run(
      'npm',
      [
        'install',
        ...['@datadriver/core', '@datadriver/redis', '@datadriver/cli', 'ioredis@5'],
        // The newest npm serves at run time: the next toolchain release cannot break these silently.
        ...['typescript@latest', '@types/node@latest'],
        ...['--no-audit', '--no-fund', '--loglevel=error'],
      ],
      { cwd: project },
    );
    const installed = JSON.parse(
      (await run('npm', ['ls', '--json', '--depth=0'], { cwd: project })).stdout,
    );
    for (const name of ['@datadriver/core', '@datadriver/redis', '@datadriver/cli']) {
      expect(installed.dependencies[name].version).toBe(version);
    }
    const newest = {
      typescript: installed.dependencies.typescript.version,
      '@types/node': installed.dependencies['@types/node'].version,
    };
    console.log(`README's programs compiled with the newest toolchain: ${JSON.stringify(newest)}`);

    // README's own steps: its tsconfig.json, `npx tsc`, `node two-servers.js` (no server name:
    // it plays both parts). The quick start gets the same compiler options in a config of its own.
    await writeFile(join(project, 'tsconfig.json'), README_TSCONFIG);
    await writeFile(join(project, 'two-servers.ts'), README_TWO_SERVERS);
    await writeFile(
      join(project, 'tsconfig.quick-start.json'),
      `${JSON.stringify({ extends: './tsconfig.json', files: ['quick-start.ts'] })}\n`,
    );
    await writeFile(join(project, 'quick-start.ts'), README_QUICK_START);
    const compile = async ([command, ...tsc]: readonly string[], extra: readonly string[]) => {
      for (const config of [[], ['-p', 'tsconfig.quick-start.json']]) {
        await run(command!, [...tsc, ...config, ...extra], { cwd: project }).catch(
          (error: { stdout?: string }) => {
            throw new Error(
              `${[command, ...tsc, ...config].join(' ')} fails:\n${error.stdout ?? ''}`,
            );
          },
        );
      }
    };
    // The pinned TypeScript and @types/node type-check and emit aside (packed-install.test.ts
    // runs their output); then the newest, as README's `npx tsc`, next to the sources.
    await compile([PINNED_TSC], ['--typeRoots', PINNED_TYPES, '--outDir', 'pinned']);
    await compile(['npx', 'tsc'], []);
    const env = { ...process.env, REDIS_URL: inject('redisUrl') };
    await run('node', ['quick-start.js'], { cwd: project, env });
    const twoServers = await run('node', ['two-servers.js'], { cwd: project, env });
    // A's kick names the coins it had not saved; B loads exactly those (the program checks it too).
    const kicked = /^A: kicked with (\d+) coins: You joined another server\.$/m.exec(
      twoServers.stdout,
    );
    expect(kicked, twoServers.stdout).not.toBeNull();
    expect(twoServers.stdout).toMatch(
      new RegExp(`^B: loaded p1-\\d+ with ${kicked?.[1]} coins, \\d+ ms after the join$`, 'm'),
    );
    expect(twoServers.stdout).toMatch(/^A: stopped$/m);
    expect(twoServers.stdout).toMatch(/^B: stopped$/m);
    const help = await run(join(project, 'node_modules', '.bin', 'datadriver'), ['--help'], {
      cwd: project,
    });
    expect(help.stdout).toContain('inspect [options] <driver> <key>');
  }, 480_000);
});
