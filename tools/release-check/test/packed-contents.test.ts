/**
 * Each published package packs to what a user should get: the built code with its declarations,
 * the README and licence, no sources or tests, and no `workspace:` range left in its manifest.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packPackage } from '../scripts/pack.mjs';
import { PUBLISHED } from '../scripts/published.mjs';

const run = promisify(execFile);
const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));

describe('packed packages', () => {
  const cleanup: string[] = [];
  afterAll(async () => {
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
  });

  it('covers every package of the fixed group, each the package of its folder under packages/', async () => {
    expect(PUBLISHED).toEqual(expect.arrayContaining(['core', 'redis', 'cli', 'opentelemetry']));
    for (const name of PUBLISHED) {
      const manifest = JSON.parse(await readFile(join(packages, name, 'package.json'), 'utf8'));
      expect(manifest.name).toBe(`@datadriver/${name}`);
    }
  });

  it.each(PUBLISHED)(
    '@datadriver/%s packs its dist, README and licence, and real version ranges',
    async (name) => {
      const into = await mkdtemp(join(tmpdir(), `dd-pack-${name}-`));
      cleanup.push(into);
      const packed = await packPackage(name, into);
      const files = packed.files;
      expect(files).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'LICENSE',
          'dist/index.js',
          'dist/index.d.ts',
        ]),
      );
      expect(
        files.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file)),
      ).toEqual([]);
      const { stdout: manifest } = await run('tar', [
        '-xzOf',
        packed.filename,
        'package/package.json',
      ]);
      expect(manifest).not.toContain('workspace:');
    },
  );
});
