/**
 * The bot survives the crash of the server it plays on: a fleet server (scaled constants, as
 * the example's tests use) is killed with SIGKILL right after the bot arrives there; the bot's
 * connection drops, it joins the next server, which takes the lock over once the dead server's
 * presence expires, and the bot reports that takeover time, then plays its remaining hops.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Fleet, startFleet } from '@datadriver/example-game-server/fleet';
import { redisProbePorts } from '@datadriver/example-game-server/test-support';
import { describeProbe, type Probe, presenceExpiry, probe } from '@datadriver/testkit/cluster';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The seed's constants a tenth as long: 0.3 s beats, a 1 s presence TTL, 1.5 s lockWait.
const SCALE = 0.1;
const BOT_CLI = fileURLToPath(new URL('../dist/bot-cli.js', import.meta.url));
const KILL_AT_HOP = 2;
const HOPS = 6;

describe('pnpm bot when the server it plays on is killed', () => {
  let fleet: Fleet;
  /** This process's own connections to the fleet's Redis (the servers' default prefix). */
  const ports = redisProbePorts(inject('redisUrl'));

  beforeAll(async () => {
    fleet = await startFleet({ firstPort: 0, scale: SCALE, redisUrl: inject('redisUrl') });
  });
  afterAll(async () => {
    await fleet.stop();
    await ports.close();
  });

  it('rejoins the next server and reports the takeover time, within the seed’s bounds', async () => {
    const urls = fleet.servers.map((server) => server.url);
    const bot = spawn(
      process.execPath,
      [
        BOT_CLI,
        '--servers',
        urls.join(','),
        '--hops',
        String(HOPS),
        '--play-ms',
        '500',
        '--user',
        `crash-${Date.now()}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let killedAt = 0;
    let takeoverSeenAt = 0;
    let victim = '';
    /** The victim's presence expiry on Redis's clock, and a probe beside the takeover. */
    let killed: Promise<{ expiresAt: number; probing: Probe }> | undefined;
    let stopped: Promise<Awaited<ReturnType<Probe['stop']>>> | undefined;
    bot.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    bot.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!takeoverSeenAt && / takeover /.test(stdout)) {
        takeoverSeenAt = performance.now();
        stopped = killed?.then(({ probing }) => probing.stop());
      }
      const arrival = new RegExp(`^ +${KILL_AT_HOP} \\S+ hop +-> (ws://\\S+) `, 'm').exec(stdout);
      if (!arrival || victim) return;
      victim = arrival[1]!;
      const server = fleet.servers.find((candidate) => candidate.url === victim)!;
      killedAt = performance.now();
      killed = server.stop('SIGKILL').then(async () => {
        const expiresAt = await presenceExpiry(ports.presence, server.jobId);
        return { expiresAt, probing: await probe(ports) };
      });
    });
    // 'close', not 'exit': the output is read in full only once the pipes closed.
    const code = await new Promise<number | null>((resolve) => bot.once('close', resolve));
    expect(stderr).toBe('');
    expect(code, stdout).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(HOPS + 2); // the join, one line per hop, the summary
    const before = /coins (\d+)/.exec(lines[KILL_AT_HOP]!)!;
    const takeover = lines[KILL_AT_HOP + 1]!;
    const parsed =
      /^ +\d+ takeover -> (ws:\/\/\S+) +wait +(\d+) ms +coins (\d+) +\((ws:\/\/\S+) went away: the connection dropped; took over in [\d.]+ s(?:, (\d) join\(s\) refused first)?; (\d+) unsaved coin\(s\) lost with it\)$/.exec(
        takeover,
      );
    expect(parsed, takeover).not.toBeNull();
    const [, to, waitMs, coins, from, , lost] = parsed!;
    expect(from).toBe(victim);
    expect(to).not.toBe(victim);
    // The profile loads as the dead server's last save: what loaded there on arrival.
    expect(coins).toBe(before[1]);
    expect([0, KILL_AT_HOP + 1]).toContain(Number(lost));
    // Two empty presence reads a beat apart, the first no sooner than the victim's last beat
    // expired on Redis; and 16 seed seconds after the kill at most (expiry within 10 s, the
    // beat, the retry spacing), plus the slack a probe measured beside the wait. The bot counts
    // from the moment its connection dropped, just after the kill, to the load.
    const { expiresAt } = await killed!;
    const figures = await stopped!;
    const sinceKillMs = takeoverSeenAt - killedAt;
    expect(takeoverSeenAt).toBeGreaterThanOrEqual(expiresAt + 3_000 * SCALE - 5);
    const bound = 16_000 * SCALE + figures.slackMs;
    expect(sinceKillMs, describeProbe('the takeover', figures)).toBeLessThanOrEqual(bound);
    expect(Number(waitMs)).toBeLessThanOrEqual(sinceKillMs);
    expect(Number(waitMs)).toBeGreaterThan(sinceKillMs - figures.slackMs);
    // The rest of the run hops between the two servers left, keeping every coin from there.
    for (const line of lines.slice(KILL_AT_HOP + 2, -1)) expect(line).not.toContain(victim);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^${HOPS} hops, every (coin kept|saved coin kept \\(${lost} unsaved lost in crashes\\)); live hop wait median \\d+ ms, p99 \\d+ ms; 1 takeover after a server went away: ${(Number(waitMs) / 1000).toFixed(2).replace('.', '\\.')} s$`,
      ),
    );
  });
});
