/** Failures reach the caller as DataDriverErrors with the client's error as `cause`. */
import { startTcpProxy, type TcpProxy } from '@datadriver/backends';
import { Handoff } from '@datadriver/core';
import {
  DataDriverError,
  ErrorCode,
  type JsonObject,
  type Messenger,
} from '@datadriver/core/ports';
import { topicOf } from '@datadriver/core/rules';
import { MemoryPresence } from '@datadriver/core/testing';
import { eventually, expectTyped } from '@datadriver/testkit';
import { recordingLogger } from '@datadriver/testkit/cluster';
import type { PubSub } from '@google-cloud/pubsub';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PubSubMessenger } from '../src/index.js';
import { toMessengerError } from '../src/messenger-error.js';
import { emulatorClient, failFast, hostAndPort, uniqueId } from './support/clients.js';
import { until } from './support/until.js';

describe('gRPC codes map to DataDriver codes', () => {
  const grpcError = (code: number) => Object.assign(new Error(`${code} FROM GRPC`), { code });
  const cases: Array<[number, string]> = [
    [14, ErrorCode.Unavailable],
    [4, ErrorCode.Timeout],
    [5, ErrorCode.Misconfigured],
    [7, ErrorCode.Misconfigured],
    [16, ErrorCode.Misconfigured],
    [8, ErrorCode.BackendFailed],
    [13, ErrorCode.BackendFailed],
  ];
  for (const [grpcCode, code] of cases) {
    it(`${grpcCode} → ${code}, keeping the cause and the gRPC code`, () => {
      const cause = grpcError(grpcCode);
      const error = toMessengerError(cause, 'publish to CKHandoff_x');
      expect(error.code).toBe(code);
      expect(error.cause).toBe(cause);
      expect(error.details).toEqual({ grpcCode });
      expect(error.message).toMatch(/^Data\.\w+: publish to CKHandoff_x failed.*: \d+ FROM GRPC$/);
    });
  }

  it('finds the code in a cause chain, calls an error without one BackendFailed, and keeps a DataDriverError', () => {
    const wrapped = new Error('publish failed', { cause: grpcError(14) });
    expect(toMessengerError(wrapped, 'publish').code).toBe(ErrorCode.Unavailable);
    expect(toMessengerError(new Error('odd'), 'publish').code).toBe(ErrorCode.BackendFailed);
    const own = new DataDriverError(ErrorCode.Closed, 'closed');
    expect(toMessengerError(own, 'publish')).toBe(own);
  });
});

describe('on the emulator', () => {
  const clients: PubSub[] = [];
  const messengers: PubSubMessenger[] = [];
  let proxy: TcpProxy;
  let topicName: string;

  beforeAll(async () => {
    proxy = await startTcpProxy(hostAndPort(inject('pubsubEmulatorHost')));
    topicName = uniqueId('errors');
  });
  afterAll(async () => {
    await proxy.start();
    await Promise.all(messengers.map((messenger) => messenger.destroy()));
    await Promise.all(clients.map((client) => client.close()));
    await proxy.close();
  });

  /** A fail-fast messenger reaching the emulator through the proxy. */
  function throughProxy(
    options: { createTopic?: boolean; topicName?: string; timeoutSeconds?: number } = {},
  ) {
    const client = emulatorClient(`127.0.0.1:${proxy.port}`);
    const messenger = new PubSubMessenger({
      client,
      topicName,
      ...failFast,
      logger: recordingLogger(),
      ...options,
    });
    clients.push(client);
    messengers.push(messenger);
    return messenger;
  }

  it('a missing topic with createTopic off: publish and subscribe reject with Data.Misconfigured', async () => {
    // Nothing is down here: a fresh client's first calls get the time a loaded machine needs
    // to answer NOT_FOUND, so the code seen is the topic's, never a deadline's.
    const messenger = throughProxy({
      createTopic: false,
      topicName: uniqueId('missing'),
      timeoutSeconds: 30,
    });
    const failures = await Promise.all([
      messenger.publish('CKHandoff_x', { n: 1 }).catch((failure: unknown) => failure),
      messenger.subscribe('CKHandoff_x', () => undefined).catch((failure: unknown) => failure),
    ]);
    for (const error of failures) {
      expect(DataDriverError.is(error, ErrorCode.Misconfigured)).toBe(true);
      expect((error as DataDriverError).details).toEqual({ grpcCode: 5 });
      expect((error as DataDriverError).cause).toMatchObject({ code: 5 });
    }
  });

  it('while Pub/Sub is unreachable, subscribe rejects with a typed error (the handoff then polls), and works once it is back', async () => {
    const messenger = throughProxy();
    await messenger.publish('CKHandoff_warm', { n: 1 });
    await proxy.stop();
    try {
      expectTyped(await messenger.subscribe('CKHandoff_down', () => {}).catch((e: unknown) => e));
    } finally {
      await proxy.start();
    }
    const received: unknown[] = [];
    await eventually(() =>
      messenger.subscribe('CKHandoff_down', (message) => void received.push(message)),
    );
    await messenger.publish('CKHandoff_down', { n: 2 });
    await until(() => received.length > 0, 5_000, 'the delivery');
    expect(received).toEqual([{ n: 2 }]);
  });

  describe("through core's Handoff, which retries a failed publish once", () => {
    /** Passes calls through to `inner`, counting publishes; `onFailure` sees each failure. */
    function counting(inner: Messenger, onFailure: (attempt: number) => Promise<void>) {
      let publishes = 0;
      const messenger: Messenger = {
        specificationVersion: 'v1',
        publish: async (topic: string, message: JsonObject) => {
          publishes += 1;
          const attempt = publishes;
          try {
            await inner.publish(topic, message);
          } catch (error) {
            await onFailure(attempt);
            throw error;
          }
        },
        subscribe: (topic, handler) => inner.subscribe(topic, handler),
      };
      return { messenger, publishes: () => publishes };
    }

    function handoffOver(messenger: Messenger): Handoff {
      return new Handoff({
        jobId: uniqueId('requester'),
        messenger,
        presence: new MemoryPresence(),
        logger: recordingLogger(),
      });
    }

    it('a publish failing twice is reported as a typed error after exactly two attempts', async () => {
      const pubsub = throughProxy();
      await pubsub.publish('CKHandoff_warm', { n: 1 });
      const { messenger, publishes } = counting(pubsub, async () => undefined);
      const handoff = handoffOver(messenger);
      await proxy.stop();
      try {
        expectTyped(await handoff.request('PlayerData', 'p1', 'holder').catch((e: unknown) => e));
        expect(publishes()).toBe(2);
      } finally {
        await proxy.start();
        await handoff.destroy();
      }
    });

    it('a publish failing once gets through on the retry', async () => {
      const holder = uniqueId('holder');
      const receiver = throughProxy();
      const received: unknown[] = [];
      await receiver.subscribe(topicOf(holder), (message) => void received.push(message));
      const pubsub = throughProxy();
      await pubsub.publish('CKHandoff_warm', { n: 1 });
      // Pub/Sub comes back as soon as the first attempt has failed.
      const { messenger, publishes } = counting(pubsub, () => proxy.start());
      const handoff = handoffOver(messenger);
      await proxy.stop();
      try {
        await handoff.request('PlayerData', 'p1', holder, 'token-1');
        expect(publishes()).toBe(2);
        await until(() => received.length > 0, 5_000, 'the delivery');
        expect(received).toEqual([
          { T: 'Q', D: 'PlayerData', K: 'p1', R: handoff.jobId, L: 'token-1' },
        ]);
      } finally {
        await proxy.start();
        await handoff.destroy();
      }
    });
  });
});
