import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ForkedServer } from '../src/index.js';

const script = fileURLToPath(new URL('./fixtures/forked-echo.mjs', import.meta.url));
const started: ForkedServer[] = [];

async function start(jobId: string): Promise<ForkedServer> {
  const server = await ForkedServer.start({ script, jobId, env: {} });
  started.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(started.map((server) => server.kill()));
});

describe('ForkedServer', () => {
  it('starts once the child is ready, with its job id in the environment', async () => {
    const server = await start('forked-a');
    expect(server.messages[0]).toEqual({ type: 'ready', jobId: 'forked-a' });
  });

  it("runs an operation and resolves with its value, or rejects with the child's wording of its error", async () => {
    const server = await start('forked-b');
    expect(await server.request('echo', { value: { coins: 5 } })).toEqual({ coins: 5 });
    await expect(server.request('fail')).rejects.toThrow('described: failed on purpose');
    await expect(server.request('missing')).rejects.toThrow('unknown operation missing');
  });

  it('keeps every other message: settled finds the load outcome, warnings the warn logs', async () => {
    const server = await start('forked-c');
    const from = server.messages.length;
    await server.request('report', { player: 'p1' });
    expect(await server.settled('p1', 1_000, from)).toEqual({
      type: 'load.loaded',
      key: 'p1',
      time: 1,
    });
    expect(server.warnings).toEqual(['warned about p1']);
    expect(server.events).toHaveLength(1);
  });

  it('rejects a wait when the process dies first, and stop() asks the child to close', async () => {
    const server = await start('forked-d');
    const waiting = server.waitFor((message) => message.type === 'never', 10_000);
    await server.kill('SIGKILL');
    await expect(waiting).rejects.toThrow('forked-d exited (SIGKILL)');
    expect(server.exitedAt).toBeDefined();
    const other = await start('forked-e');
    await other.stop();
    expect((await other.exited).code).toBe(0);
  });
});
