import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { GameServerProcess } from '@datadriver/example-game-server/process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runBot } from '../src/bot.js';
import { BOT_USAGE, DEFAULT_SERVERS, parseBotArgs } from '../src/bot-args.js';

// The seed's constants a tenth as long: 0.3 s beats, a 1 s presence TTL, 1.5 s lockWait.
const SCALE = 0.1;
const SLACK_MS = 1_000;
const BOT_CLI = fileURLToPath(new URL('../dist/bot-cli.js', import.meta.url));

describe('the bot against game servers on a real redis-server, as separate processes', () => {
  const env = { REDIS_URL: inject('redisUrl') };
  let servers: GameServerProcess[] = [];

  beforeAll(async () => {
    servers = await Promise.all(
      ['bot-a', 'bot-b', 'bot-c'].map((jobId) =>
        GameServerProcess.start({ jobId, env, scale: SCALE }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('hops between servers while connected, and rejoins, keeping every coin', async () => {
    const hops = await runBot({
      servers: servers.map((s) => s.url),
      user: `bot-${Date.now()}`,
      hops: 12,
    });
    expect(hops).toHaveLength(13);
    expect(hops.map((hop) => hop.coins)).toEqual(hops.map((_, i) => (i * (i + 1)) / 2));
    expect(hops.filter((h) => h.kind === 'rejoin')).toHaveLength(4);
    const live = hops.filter((h) => h.kind === 'live hop');
    expect(live).toHaveLength(8);
    for (const hop of live) {
      expect(hop.oldSessionEnded).toBe('You joined another server.');
      // The seed's live hand-over: under 1.5 s at its real constants; here well under that.
      expect(hop.serverWaitMs).toBeLessThan(1_500 * SCALE + SLACK_MS);
    }
  });

  it('`--hops N` prints each wait and a summary', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      BOT_CLI,
      '--servers',
      servers.map((s) => s.url).join(','),
      '--hops',
      '4',
      '--user',
      `cli-${Date.now()}`,
    ]);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^ {3}0 join +-> ws:\/\/127\.0\.0\.1:\d+ +wait +\d+ ms +coins 0$/);
    expect(lines[1]).toMatch(/live hop.*coins 1 +\(old session: You joined another server\.\)$/);
    expect(lines[3]).toMatch(/rejoin.*coins 6$/);
    expect(lines[5]).toMatch(/^4 hops, every coin kept; live hop wait median \d+ ms, p99 \d+ ms$/);
  });

  it('`--gift-at 2` grants itself coins through another server mid-run and prints the gift arriving, applied once', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      BOT_CLI,
      '--servers',
      servers.map((s) => s.url).join(','),
      '--hops',
      '4',
      '--gift-at',
      '2',
      '--gift-coins',
      '100',
      '--user',
      `gift-${Date.now()}`,
    ]);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[1]).toMatch(/live hop.*coins 1 +\(old session/);
    // Sent through the server after the one it plays on (hop 1 arrived on the second).
    const webhook = servers[2]!.httpUrl;
    expect(lines[2]).toMatch(
      new RegExp(
        `^ {3}2 gift +<- 100 coins arrived in \\d+ ms  coins 101  \\(receipt gift-\\d+-gift-2-\\d+, posted to ${webhook}/grant: queued\\)$`,
      ),
    );
    // Every later arrival carries it exactly once: 1 + 100, then 2, 3 and 4 earned.
    expect(lines[3]).toMatch(/live hop.*coins 103 /);
    expect(lines[4]).toMatch(/rejoin.*coins 106$/);
    expect(lines[5]).toMatch(/live hop.*coins 110 /);
    expect(lines[6]).toMatch(/; a gift of 100 coins arrived in \d+ ms, applied once$/);
  });

  it('`--help` prints the usage, and `--hops abc` is refused with a sentence and exit code 2', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [BOT_CLI, '--help']);
    expect(stdout.trim()).toBe(BOT_USAGE);
    const refused = await run(process.execPath, [BOT_CLI, '--hops', 'abc']).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect((refused as { stderr: string }).stderr).toMatch(
      /^pnpm bot: --hops must be a whole number of at least 1, got "abc"\n\nUsage: pnpm bot /,
    );
  });
});

describe('parseBotArgs', () => {
  it('reads the options, with their defaults', () => {
    expect(parseBotArgs([], 42)).toEqual({
      servers: DEFAULT_SERVERS.split(','),
      hops: 10,
      user: 'bot-42',
      rejoinEvery: 3,
      playMs: 0,
      giftAt: undefined,
      giftCoins: 100,
      help: false,
    });
    expect(
      parseBotArgs([
        '--servers',
        'ws://a:1, ws://b:2',
        '--hops',
        '3',
        '--user',
        'u',
        '--play-ms',
        '0',
      ]),
    ).toMatchObject({ servers: ['ws://a:1', 'ws://b:2'], hops: 3, user: 'u', playMs: 0 });
  });

  it.each([
    [['--hops', 'abc'], '--hops must be a whole number of at least 1, got "abc"'],
    [['--hops', '0'], '--hops must be a whole number of at least 1, got "0"'],
    [['--hops', '2.5'], '--hops must be a whole number of at least 1, got "2.5"'],
    [['--hops'], '--hops needs a value'],
    [['--hops', '--user', 'x'], '--hops needs a value'],
    [['--play-ms', '-5'], '--play-ms must be a whole number, got "-5"'],
    [['--play-ms', 'soon'], '--play-ms must be a whole number, got "soon"'],
    [['--rejoin-every', '0'], '--rejoin-every must be a whole number of at least 1, got "0"'],
    [['--servers', 'localhost:7001,ws://b:2'], 'got "localhost:7001"'],
    [['--servers', 'ws://a:1'], '--servers needs at least two servers'],
    [['--user', ''], '--user must not be empty'],
    [['--gift-at', '0'], '--gift-at must be a whole number of at least 1, got "0"'],
    [['--hops', '3', '--gift-at', '4'], '--gift-at must be a hop the bot makes (1 to 3), got "4"'],
    [['--gift-coins', 'lots'], '--gift-coins must be a whole number of at least 1, got "lots"'],
    [['--speed', '2'], 'unknown option "--speed"'],
    [['20'], 'unknown option "20"'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseBotArgs(argv)).toThrow(message);
  });
});
