/**
 * The peer's lease clients fail their trial, never the bench process: a failed heartbeat is
 * reported by the release, and a holder process still acquiring goes away with the bench.
 * Against a scripted HTTP endpoint that answers as DynamoDB would (or never answers), so each
 * failure happens exactly once, where the test puts it.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { acquire, documentClient, leaseClient, release } from '../src/peer/lease-lock.js';

process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE ??= '1';

const HOLDER = fileURLToPath(new URL('../dist/peer/lease-holder-main.js', import.meta.url));
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

type Answer = (target: string, res: ServerResponse) => void;

/** A DynamoDB endpoint on a free port whose calls `answer` handles (by X-Amz-Target). */
async function endpoint(answer: Answer): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => answer(String(req.headers['x-amz-target']).split('.')[1] ?? '', res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
  res.end(JSON.stringify(body));
}

test("a lease heartbeat's failure rejects the release, and does not end the process", async () => {
  let puts = 0;
  const url = await endpoint((target, res) => {
    if (target === 'GetItem') return reply(res, 200, {}); // no lock held: acquire a new one
    puts += 1;
    // Put 1 acquires, put 2 is the first heartbeat, put 3 the release.
    if (puts === 2) {
      return reply(res, 400, {
        __type: 'com.amazonaws.dynamodb.v20120810#ValidationException',
        message: 'heartbeat refused',
      });
    }
    reply(res, 200, {});
  });
  const settings = { endpoint: url, leaseMs: 1_000, heartbeatMs: 20, retryCount: 0 };
  const lock = await acquire(leaseClient(settings, documentClient(url)), 'player-1');
  await new Promise((resolve) => setTimeout(resolve, 200)); // the heartbeat fails meanwhile
  await expect(release(lock)).rejects.toThrow('heartbeat refused');
  expect(puts).toBe(3);
});

test('a holder process still acquiring exits when the bench closes its stdin', async () => {
  let calls = 0;
  // DynamoDB that never answers: the holder's acquire cannot finish.
  const url = await endpoint(() => {
    calls += 1;
  });
  const args = { endpoint: url, leaseMs: 1_000, heartbeatMs: 300, keys: ['player-1'] };
  const child = spawn(process.execPath, [HOLDER, JSON.stringify(args)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1' },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (let waited = 0; calls === 0 && waited < 20_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(calls).toBe(1); // its first call, still unanswered
    child.stdin.end();
    const timeout = new Promise<'still running'>((resolve) =>
      setTimeout(() => resolve('still running'), 5_000),
    );
    expect(await Promise.race([exited, timeout])).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
});
