/**
 * What a user gets from the registry must work: each package is packed as it would be
 * published (`pnpm pack` rewrites workspace ranges), then core plus the Redis adapter (and, in
 * a second project, the Colyseus host with Colyseus itself) are installed from the tarballs
 * with plain npm into a project outside the workspace, where a small TypeScript program
 * type-checks, compiles, and loads, saves and releases a profile, and README's two-server
 * program (its `ts run file=two-servers.ts` block, as written there) hands a player over
 * between two processes; and core plus the Redis adapter once more with ioredis 6, the top of
 * the adapter's peer range (the first project has 5.11.1, its bottom).
 */
import { freePort } from '@datadriver/backends';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { COLYSEUS_CONSUMER_PROGRAM } from './colyseus-consumer-program.js';
import { CONSUMER_PROGRAM } from './consumer-program.js';
import { consumerProject, run, Scratch, tarballs } from './consumer-project.js';
import { README_TWO_SERVERS } from './readme-program.js';

describe('the packages installed from their tarballs with npm into a fresh project', () => {
  const scratch = new Scratch();
  afterAll(() => scratch.removeAll());

  it('type-checks, loads, saves and releases a profile against a real redis-server; README’s two servers hand a player over', async () => {
    const dir = await consumerProject(
      scratch,
      { ...(await tarballs(scratch, ['core', 'redis'])), ioredis: '5.11.1' },
      { 'main.ts': CONSUMER_PROGRAM, 'two-servers.ts': README_TWO_SERVERS },
    );
    const twoServers = await run('node', ['out/two-servers.js'], {
      cwd: dir,
      env: { ...process.env, REDIS_URL: inject('redisUrl') },
    });
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
    const { stdout } = await run('node', ['out/main.js'], {
      cwd: dir,
      env: { ...process.env, REDIS_URL: inject('redisUrl') },
    });
    expect(JSON.parse(stdout.trim())).toEqual({
      data: { coins: 25, badges: ['first-login'] },
      active: true,
      refused: 'Data.InvalidConfig',
      entries: { sameErrorClass: true, inMemoryCoins: 1 },
    });
  });

  it("with ioredis 6, the top of the Redis adapter's peer range: installs, type-checks, loads, saves and releases a profile", async () => {
    const dir = await consumerProject(
      scratch,
      { ...(await tarballs(scratch, ['core', 'redis'])), ioredis: '6.0.0' },
      CONSUMER_PROGRAM,
    );
    // Every peer within its range: npm reports an invalid peer here.
    await run('npm', ['ls', '--all'], { cwd: dir });
    const { stdout } = await run('node', ['out/main.js'], {
      cwd: dir,
      env: { ...process.env, REDIS_URL: inject('redisUrl') },
    });
    expect(JSON.parse(stdout.trim())).toMatchObject({
      data: { coins: 25, badges: ['first-login'] },
      active: true,
    });
  });

  it("with @datadriver/colyseus: a Colyseus room's onJoin gets the loaded profile, the client's leave releases it", async () => {
    const dir = await consumerProject(
      scratch,
      {
        ...(await tarballs(scratch, ['core', 'redis', 'colyseus'])),
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
