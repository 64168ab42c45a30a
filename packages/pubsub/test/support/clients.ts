/**
 * Clients of a test emulator. The harness makes them fail fast, so an outage test takes
 * seconds: the library defaults would retry a call for 60 s and reconnect after 1 s doubling
 * to 120 s.
 */
import { randomBytes } from 'node:crypto';
import { Duration, PubSub } from '@google-cloud/pubsub';
import type { PubSubMessengerOptions } from '../../src/index.js';

export const PROJECT_ID = 'datadriver-test';

/** A new client of the emulator at `host:port`, reconnecting within 0.1 to 0.5 s. */
export function emulatorClient(endpoint: string): PubSub {
  // Channel options pass through to gRPC; ClientConfig's type does not list them.
  const channel: Record<string, number> = {
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 500,
  };
  return new PubSub({ projectId: PROJECT_ID, apiEndpoint: endpoint, ...channel });
}

/**
 * Messenger options for outage tests: each call gives up after 1 s (retries included), and
 * a broken stream retries within 0.5 s.
 */
export const failFast = {
  timeoutSeconds: 1,
  subscriberOptions: {
    streamingOptions: { retryMaxBackoff: Duration.from({ milliseconds: 500 }) },
  },
} satisfies Partial<PubSubMessengerOptions>;

/** A Pub/Sub id no other test uses, so test files sharing an emulator stay apart. */
export function uniqueId(stem: string): string {
  return `${stem}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** `host:port` split for startTcpProxy. */
export function hostAndPort(endpoint: string): { host: string; port: number } {
  const at = endpoint.lastIndexOf(':');
  return { host: endpoint.slice(0, at), port: Number(endpoint.slice(at + 1)) };
}
