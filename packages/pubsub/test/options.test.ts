import { DataDriverError, ErrorCode } from '@datadriver/core';
import type { PubSub } from '@google-cloud/pubsub';
import { afterAll, describe, expect, it } from 'vitest';
import { PubSubMessenger, type PubSubMessengerOptions } from '../src/index.js';
import { emulatorClient } from './support/clients.js';

// Construction makes no call: the client never connects anywhere.
const client = emulatorClient('127.0.0.1:1');
afterAll(() => client.close());

function refusal(options: Partial<PubSubMessengerOptions>): unknown {
  try {
    new PubSubMessenger({ client, ...options });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('options Pub/Sub would refuse fail at construction with Data.InvalidConfig', () => {
  const cases: Array<[string, Partial<PubSubMessengerOptions>, RegExp]> = [
    [
      'an expiration under a day',
      { expirationSeconds: 3_600 },
      /expirationSeconds must be a whole number from 86400/,
    ],
    ['an expiration over 31 days', { expirationSeconds: 32 * 86_400 }, /expirationSeconds/],
    [
      'a retention under ten minutes',
      { retentionSeconds: 60 },
      /retentionSeconds must be a whole number from 600/,
    ],
    [
      'an expiration before the retention',
      { retentionSeconds: 2 * 86_400 },
      /expirationSeconds must be at least retentionSeconds/,
    ],
    ['a fractional retention', { retentionSeconds: 600.5 }, /retentionSeconds/],
    ['a zero timeout', { timeoutSeconds: 0 }, /timeoutSeconds must be a positive number/],
    [
      'a topic id starting with goog',
      { topicName: 'goog-handoff' },
      /topicName "goog-handoff" is not a valid Pub\/Sub id/,
    ],
    ['a topic id too short', { topicName: 'ab' }, /topicName "ab"/],
    ['a topic id with a slash', { topicName: 'projects/p/topics/t' }, /topicName/],
    [
      'a prefix starting with a digit',
      { subscriptionPrefix: '1-servers-' },
      /subscriptionPrefix "1-servers-"/,
    ],
    ['no client', { client: undefined as unknown as PubSub }, /`client` must be a PubSub client/],
  ];
  for (const [what, options, message] of cases) {
    it(what, () => {
      const error = refusal(options);
      expect(DataDriverError.is(error, ErrorCode.InvalidConfig)).toBe(true);
      expect((error as Error).message).toMatch(message);
    });
  }

  it('accepts the service minimums and maximums', () => {
    expect(refusal({ expirationSeconds: 86_400, retentionSeconds: 600 })).toBeUndefined();
    expect(
      refusal({ expirationSeconds: 31 * 86_400, retentionSeconds: 31 * 86_400 }),
    ).toBeUndefined();
  });
});
