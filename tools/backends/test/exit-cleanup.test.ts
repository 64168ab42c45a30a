import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { isListening, rawPing } from './helpers.js';

// The check needs a separate Node process that dies without calling stop(). Node 20 cannot run
// TypeScript, so the sources are transpiled next to this package's node_modules (for imports).
const OUT = join(import.meta.dirname, '..', 'node_modules', '.cache', 'exit-cleanup-test');
const SRC = join(import.meta.dirname, '..', 'src');

const FIXTURE = `
import { createConnection } from 'node:net';
import { startRedis } from './index.js';
const own = process.argv[2] === 'own';
const redis = await startRedis({ env: {}, ownSignals: own });
if (own) {
  // Its own SIGTERM handler: Redis must still answer here, then die when this process exits.
  process.on('SIGTERM', () => {
    const socket = createConnection(redis.port, '127.0.0.1', () => socket.write('PING\\r\\n'));
    socket.once('data', (data) => {
      process.stdout.write('after SIGTERM: ' + data.toString());
      process.exit(0);
    });
  });
}
process.stdout.write(redis.port + '\\n');
if (process.argv[2] === 'exit') process.exit(0);
if (process.argv[2] === 'throw') throw new Error('crash on purpose');
`;

function transpileSources(): void {
  mkdirSync(OUT, { recursive: true });
  const compilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
  for (const file of readdirSync(SRC).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join(SRC, file), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions });
    writeFileSync(join(OUT, file.replace(/\.ts$/, '.js')), outputText);
  }
  writeFileSync(join(OUT, 'fixture.mjs'), FIXTURE);
}

/** Runs the fixture until it prints the Redis port. */
function startFixture(
  mode: 'exit' | 'throw' | 'wait' | 'own',
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(OUT, 'fixture.mjs'), mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve({ child, port: Number(data.toString()) }));
    child.once('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
  });
}

async function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

/** The kill is a signal send, so give the kernel a moment to tear the server down. */
async function goneWithin(port: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(50)) {
    if (!(await isListening('127.0.0.1', port))) return true;
  }
  return false;
}

describe('children die with the process that started them', () => {
  beforeAll(transpileSources);

  it.each(['exit', 'throw'] as const)('when it ends by %s', async (mode) => {
    const { child, port } = await startFixture(mode);
    await exitOf(child);
    expect(await goneWithin(port, 3000)).toBe(true);
  });

  it('when it is sent SIGTERM', async () => {
    const { child, port } = await startFixture('wait');
    expect(await rawPing('127.0.0.1', port)).toBe('+PONG\r\n');
    child.kill('SIGTERM');
    await exitOf(child);
    expect(child.exitCode).toBe(128 + 15);
    expect(await goneWithin(port, 3000)).toBe(true);
  });

  it('with ownSignals, not on its SIGTERM (the caller stops it), but when it exits', async () => {
    const { child, port } = await startFixture('own');
    let output = '';
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
    });
    child.kill('SIGTERM');
    await exitOf(child);
    expect(output).toContain('after SIGTERM: +PONG');
    expect(child.exitCode).toBe(0);
    expect(await goneWithin(port, 3000)).toBe(true);
  });
});
