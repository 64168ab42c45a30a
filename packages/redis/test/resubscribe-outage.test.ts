/**
 * A bus that drops again while the messenger's connection subscribes anew after a reconnect:
 * found by the chaos suite, where it killed a game server with an unhandled
 * `MaxRetriesPerRequestError` (ioredis's own re-subscribe, which nothing awaited). The
 * messenger must survive it, warn, and deliver again once the bus is back.
 */
import type { TcpProxy } from '@datadriver/backends';
import { recordingLogger } from '@datadriver/testkit/cluster';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger } from '../src/index.js';
import { RESUBSCRIBE_RETRY_MS } from '../src/resubscribe.js';
import { deliveredWithin, until } from './support/own-cluster.js';
import {
  Clients,
  redisProxy,
  redisUrl,
  TEST_OPTIONS,
  throughProxy,
  uniquePrefix,
} from './support/redis.js';

const clients = new Clients();
let proxy: TcpProxy;
const unhandled: unknown[] = [];
const noteUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  proxy = await redisProxy();
  process.on('unhandledRejection', noteUnhandled);
});
afterEach(() => proxy.start());
afterAll(async () => {
  process.off('unhandledRejection', noteUnhandled);
  await clients.quitAll();
  await proxy.close();
});

describe('RedisMessenger when the bus drops again as it re-subscribes', () => {
  for (const sharded of [false, true]) {
    it(`survives, warns once, and delivers once the bus is back (${sharded ? 'sharded' : 'classic'})`, async () => {
      unhandled.length = 0;
      const logger = recordingLogger();
      // maxRetriesPerRequest: 1 (the recommended options) fails a command after one more
      // failed reconnect: the re-SUBSCRIBE cut below, with the proxy still down.
      const client = await clients.open(throughProxy(redisUrl(), proxy), TEST_OPTIONS);
      const messenger = new RedisMessenger({
        client,
        prefix: uniquePrefix('resubscribe-outage'),
        sharded,
        logger,
      });
      const received: unknown[] = [];
      await messenger.subscribe('t', (message) => void received.push(message));

      await proxy.stop();
      const cutAsItResubscribes = proxy.stopOnRequest(/\bs?subscribe\b/i);
      await proxy.start();
      await cutAsItResubscribes;
      const failed = () =>
        logger.lines.some(
          (line) => line.level === 'warn' && /again after a reconnect/.test(line.message),
        );
      // The re-subscribe fails at the next failed reconnect (ioredis waits 50 ms, then more).
      await until(() => failed() || unhandled.length > 0, 10_000, 'the re-subscribe failing');
      expect(unhandled).toEqual([]);

      await proxy.start();
      const publish = () => messenger.publish('t', { after: 'outage' });
      await deliveredWithin(publish, received, 10_000, 'a delivery after the outage');
      expect(received[0]).toEqual({ after: 'outage' });
      const reports = logger.lines
        .filter((line) => line.level !== 'debug')
        .map((line) => `${line.level}: ${line.message.replace(/ \(.*\);/, ' (…);')}`);
      expect(reports).toEqual([
        'warn: redis subscriber: subscribing to 1 channel(s) again after a reconnect failed (…); retrying once it reconnects, and nothing published to them meanwhile is delivered',
        'info: redis subscriber: subscribed to 1 channel(s) again',
      ]);
      expect(unhandled).toEqual([]);
      await messenger.close();
    });
  }

  it('retries on a timer when the re-subscribe fails on a connection that stayed up', async () => {
    // A user of this test's own whose channel rights are withdrawn while the connection is
    // down: the re-SUBSCRIBE then fails with NOPERM on a connection that is ready.
    const admin = await clients.open();
    const user = `ddtest-resubscribe-${process.pid}`;
    await admin.call('ACL', 'SETUSER', user, 'on', 'nopass', '~*', '&*', '+@all');
    try {
      const logger = recordingLogger();
      const url = new URL(throughProxy(redisUrl(), proxy));
      url.username = user;
      url.password = '';
      const client = await clients.open(url.toString(), TEST_OPTIONS);
      const messenger = new RedisMessenger({
        client,
        prefix: uniquePrefix('resubscribe-acl'),
        logger,
      });
      const received: unknown[] = [];
      await messenger.subscribe('t', (message) => void received.push(message));

      await proxy.stop();
      await admin.call('ACL', 'SETUSER', user, 'resetchannels');
      await proxy.start();
      const warned = () => logger.lines.some((line) => line.level === 'warn');
      await until(warned, 10_000, 'the re-subscribe failing');
      await admin.call('ACL', 'SETUSER', user, '&*');
      const publish = () => admin.publish(messenger.channelOf('t'), '{"after":"rights"}');
      const waited = await deliveredWithin(publish, received, 10_000, 'a delivery after the retry');
      expect(received).toEqual([{ after: 'rights' }]);
      const reports = logger.lines
        .filter((line) => line.level !== 'debug')
        .map((line) => `${line.level}: ${line.message}`);
      expect(reports).toEqual([
        expect.stringMatching(
          /^warn: .*again after a reconnect failed \(.*NOPERM.*\); retrying in 1000 ms/,
        ),
        'info: redis subscriber: subscribed to 1 channel(s) again',
      ]);
      // The retry came from the timer, not a reconnect: at most its 1 s after the rights.
      expect(waited).toBeLessThan(RESUBSCRIBE_RETRY_MS + 1_000);
      expect(unhandled).toEqual([]);
      await messenger.close();
    } finally {
      await admin.call('ACL', 'DELUSER', user);
    }
  });
});
