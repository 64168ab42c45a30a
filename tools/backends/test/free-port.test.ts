import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { withFreePort } from '../src/free-port.js';
import { freePort } from '../src/index.js';

describe('freePort', () => {
  it('returns a port that can be bound on loopback', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(port).toBeGreaterThan(0);
  });

  it('withFreePort retries on a new port when the first was taken meanwhile', async () => {
    const tried: number[] = [];
    const result = await withFreePort(async (port) => {
      tried.push(port);
      if (tried.length === 1) throw new Error('bind: Address already in use');
      return port;
    });
    expect(tried).toHaveLength(2);
    expect(result).toBe(tried[1]);
  });

  it('withFreePort does not retry other failures', async () => {
    let calls = 0;
    const failing = withFreePort(async () => {
      calls++;
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(calls).toBe(1);
  });
});
