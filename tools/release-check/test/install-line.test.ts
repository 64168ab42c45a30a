/** `pnpm pack:local`'s install lines, from the published packages' manifests (a pure function). */
import { describe, expect, it } from 'vitest';
import { type InstallManifest, installLine, peerSpec } from '../scripts/install-line.mjs';

describe('peerSpec', () => {
  it.each([
    ['ioredis', '^5.11.1 || ^6.0.0', 'ioredis@5'],
    ['@colyseus/core', '~0.16.20', '@colyseus/core@0.16'],
    ['@aws-sdk/client-dynamodb', '^3.1169.0', '@aws-sdk/client-dynamodb@3'],
    ['vitest', '>=4.1.0', 'vitest@4'],
    ['anything', '*', 'anything'],
  ])('%s %s is %s', (name, range, spec) => {
    expect(peerSpec(name, range)).toBe(spec);
  });
});

describe('installLine', () => {
  const manifests = new Map<string, InstallManifest>([
    ['@datadriver/core', { dependencies: { '@standard-schema/spec': '1.1.0' } }],
    [
      '@datadriver/redis',
      { peerDependencies: { '@datadriver/core': '^1.0.0', ioredis: '^5.11.1 || ^6.0.0' } },
    ],
    [
      '@datadriver/dynamodb',
      {
        peerDependencies: { '@datadriver/core': '^1.0.0', '@aws-sdk/client-dynamodb': '^3.1169.0' },
      },
    ],
    [
      '@datadriver/cli',
      {
        dependencies: {
          '@aws-sdk/client-dynamodb': '3.1169.0',
          '@datadriver/dynamodb': '^1.0.0',
          '@datadriver/redis': '^1.0.0',
          ioredis: '^5.11.1',
        },
      },
    ],
  ]);
  const tarballOf = (name: string) => `${name.replace('@datadriver/', '')}.tgz`;

  it('core alone: its tarball, its own dependencies left to npm', () => {
    expect(installLine('@datadriver/core', manifests, tarballOf)).toBe('npm install core.tgz');
  });

  it('an adapter: core’s tarball before its own, and its SDK peer within range', () => {
    expect(installLine('@datadriver/redis', manifests, tarballOf)).toBe(
      'npm install core.tgz redis.tgz ioredis@5',
    );
  });

  it('the CLI: every @datadriver package it needs, even through another (core through redis), in list order; peers its own dependencies install are not named', () => {
    expect(installLine('@datadriver/cli', manifests, tarballOf)).toBe(
      'npm install core.tgz redis.tgz dynamodb.tgz cli.tgz',
    );
  });

  it('a name that is not published is refused', () => {
    expect(() => installLine('@datadriver/nope', manifests, tarballOf)).toThrow(
      /not a published package/,
    );
  });
});
