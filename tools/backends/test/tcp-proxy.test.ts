import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTcpProxy } from '../src/index.js';

function echoServer(): Promise<{ port: number; close(): void }> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.pipe(socket));
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        close: () => server.close(),
      });
    });
  });
}

function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.once('data', (data) => {
      resolve(data.toString());
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

/** True when the connection closed without a byte of answer. */
function closedUnanswered(port: number, text: string): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', () => {
      answered = true;
    });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(!answered));
  });
}

describe('startTcpProxy', () => {
  it('forwards, refuses while stopped, and forwards again on the same port', async () => {
    const echo = await echoServer();
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
    expect(await roundTrip(proxy.port, 'one')).toBe('one');
    const port = proxy.port;
    await proxy.stop();
    await expect(roundTrip(port, 'two')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.start();
    expect(proxy.port).toBe(port);
    expect(await roundTrip(proxy.port, 'three')).toBe('three');
    await proxy.close();
    echo.close();
  });

  it('takes a target known only later: closes connections until it is known, then forwards', async () => {
    const echo = await echoServer();
    let target: { host: string; port: number } | undefined;
    const proxy = await startTcpProxy(() => target);
    expect(await closedUnanswered(proxy.port, 'early')).toBe(true);
    target = { host: '127.0.0.1', port: echo.port };
    expect(await roundTrip(proxy.port, 'later')).toBe('later');
    await proxy.close();
    echo.close();
  });

  it('freeze silences open connections without closing them, and spares new ones', async () => {
    const echo = await echoServer();
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
    const stale = connect(proxy.port, '127.0.0.1');
    await new Promise((resolve) => stale.once('connect', resolve));
    const seen: string[] = [];
    let closed = false;
    stale.on('data', (data) => seen.push(data.toString()));
    stale.once('close', () => {
      closed = true;
    });
    proxy.freeze();
    stale.write('lost');
    expect(await roundTrip(proxy.port, 'fresh')).toBe('fresh'); // a later connection works
    await new Promise((resolve) => setTimeout(resolve, 100)); // real sockets: give "lost" time
    expect(seen).toEqual([]);
    expect(closed).toBe(false);
    stale.destroy();
    await proxy.close();
    echo.close();
  });

  it('stopOnRequest stops as a matching request leaves the client, unanswered, and fires once', async () => {
    const echo = await echoServer();
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
    const port = proxy.port;
    const stopped = proxy.stopOnRequest(/subscribe/i);
    const client = connect(port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    client.on('error', () => undefined);
    const closed = new Promise((resolve) => client.once('close', resolve));
    const echoed = new Promise((resolve) =>
      client.once('data', (data) => resolve(data.toString())),
    );
    client.write('PING');
    expect(await echoed).toBe('PING'); // what does not match passes
    client.on('data', (data) => expect.fail(`echoed ${data.toString()}`));
    client.write('SUBSCRIBE news');
    await stopped;
    await closed;
    await expect(roundTrip(port, 'refused')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.start();
    expect(await roundTrip(port, 'SUBSCRIBE again')).toBe('SUBSCRIBE again'); // disarmed
    await proxy.close();
    echo.close();
  });
});
