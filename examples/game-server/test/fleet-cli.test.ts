/**
 * The fleet's own messages: a server that dies is reported and the others keep running; a busy
 * port stops the start with a sentence, not an EADDRINUSE trace; bad options and --help.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { FLEET_USAGE, parseFleetArgs } from '../src/fleet-args.js';
import { PlayerClient } from '../src/player-client.js';
import { processesRunning } from './support/processes.js';

const FLEET_CLI = fileURLToPath(new URL('../dist/fleet-cli.js', import.meta.url));

function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [FLEET_CLI, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    text += chunk.toString();
    for (const wake of [...waiters]) wake();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${text}`)), 60_000);
      const check = (): void => {
        const match = pattern.exec(text);
        if (!match) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(match);
      };
      waiters.add(check);
      check();
    });
  // 'close', not 'exit': the output is read in full only once the pipes closed.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, output: () => text, waitFor, exited };
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe('pnpm fleet', () => {
  it('says which server died and keeps the others serving; the stop then names the dead one', async () => {
    const fleet = startCli(['--port', '0', '--count', '2', '--scale', '0.1'], {
      ...process.env,
      REDIS_URL: inject('redisUrl'),
    });
    try {
      const [, url] = await fleet.waitFor(/server-b listening on (ws:\/\/[\d.:]+)\/play/);
      await fleet.waitFor(/fleet up/);
      const [victim] = processesRunning(/dist\/server\.js .*--job server-a\b/).filter((server) =>
        processesRunning(/dist\/fleet-cli\.js/).some((cli) => cli.pgrp === server.pgrp),
      );
      expect(victim).toBeDefined();
      process.kill(victim!.pid, 'SIGKILL');
      await fleet.waitFor(
        /game server server-a exited unexpectedly \(SIGKILL\)\. The others keep running/,
      );
      const player = await PlayerClient.connect(url!, `after-crash-${Date.now()}`);
      expect((await player.next('loaded')).type).toBe('loaded'); // server-b still serves
      fleet.child.kill('SIGTERM'); // the player still connected: the stop releases the profile
      // server-a released nothing (it was killed): the stop says so and fails.
      expect(await fleet.exited).toBe(1);
      expect(fleet.output()).toContain('game server server-b stopped: released 1, unreleased 0');
      expect(fleet.output()).toContain('fleet stopped; server-a did not release every profile');
      await player.close();
    } finally {
      fleet.child.kill('SIGKILL');
    }
  });

  it('a busy port stops the start with a sentence, and leaves nothing running', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const env = { ...process.env };
    delete env.REDIS_URL; // its own Redis, which the failed start must stop
    const fleet = startCli(['--port', String(port), '--count', '1'], env);
    try {
      const [, redisPort] = await fleet.waitFor(
        /started a redis-server at redis:\/\/127\.0\.0\.1:(\d+)/,
      );
      expect(await fleet.exited).toBe(1);
      const output = fleet.output();
      expect(output).toContain(
        `game server server-a cannot listen on 127.0.0.1:${port}: port ${port} is already in use (another game server or fleet still running?). Stop it, or choose another port with --port (0 picks a free one).`,
      );
      expect(output).toContain('fleet could not start: server-a exited with 1 before listening');
      expect(output).not.toMatch(/^\s+at /m); // no stack trace
      const left = processesRunning(
        new RegExp(`--port ${port} |^redis-server 127\\.0\\.0\\.1:${redisPort}`),
      );
      expect(left).toEqual([]);
    } finally {
      fleet.child.kill('SIGKILL');
      await exitOf(fleet.child);
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('--help prints the usage; a bad option is refused with it', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [FLEET_CLI, '--help']);
    expect(stdout.trim()).toBe(FLEET_USAGE);
    // The usage names the behaviour, not the specification's nickname.
    expect(FLEET_USAGE).toContain('(default 1, the default timings)');
    expect(FLEET_USAGE).not.toMatch(/\bseed\b/i);
    const refused = await run(process.execPath, [FLEET_CLI, '--count', 'many']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain(
      'pnpm fleet: --count must be a whole number from 1 to 26, got many',
    );
  });
});

describe('parseFleetArgs', () => {
  it('reads the options and their defaults', () => {
    expect(parseFleetArgs([])).toEqual({
      count: 3,
      firstPort: 7001,
      scale: 1,
      stack: 'redis',
      help: false,
    });
    expect(
      parseFleetArgs(['--count', '2', '--port', '0', '--scale', '0.1', '--stack', 'postgres']),
    ).toEqual({ count: 2, firstPort: 0, scale: 0.1, stack: 'postgres', help: false });
  });

  it.each([
    [['--hops', '3'], 'unknown option --hops'],
    [['--port'], '--port needs a value'],
    [['--scale', '--port', '1'], '--scale needs a value'],
    [['--port', '70000'], '--port must be a port number, got 70000'],
    [['--count', '0'], '--count must be a whole number from 1 to 26, got 0'],
    [['--scale', '-1'], '--scale must be a positive number, got -1'],
    [['--scale', 'abc'], '--scale must be a positive number, got abc'],
    [['--stack', 'mysql'], '--stack must be redis or postgres, got mysql'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseFleetArgs(argv)).toThrow(message);
  });
});
