/**
 * A release request's reason (`W`): `'support'` when `restoreAt` or `erase` asks, so the holder
 * kicks with `kickMessages.support` (kick-leave.test.ts). It parses only as a known reason, and
 * a signature covers it: a request re-sent with its reason changed is dropped.
 */
import { describe, expect, it } from 'vitest';
import type { HandoffClient } from '../src/handoff/handoff.js';
import { parseHandoffMessage } from '../src/handoff/wire.js';
import { Handoff } from '../src/index.js';
import { topicOf } from '../src/rules.js';
import { MemoryMessenger, MemoryPresence, VirtualClock } from '../src/testing.js';
import { recordingLogger } from './helpers.js';

describe('parseHandoffMessage: the reason', () => {
  const request = { T: 'Q', D: 'PlayerData', K: 'p1', R: 'B', L: 't1' };
  it.each([
    ['support', { ...request, W: 'support' }, { ...request, W: 'support' }],
    ['none', request, request],
    ['one this build does not know: read as none', { ...request, W: 'audit' }, request],
    ['not text: read as none', { ...request, W: 7 }, request],
    [
      'operator, with its kick message',
      { ...request, W: 'operator', M: 'Maintenance.' },
      { ...request, W: 'operator', M: 'Maintenance.' },
    ],
    ['operator without a message: read as none', { ...request, W: 'operator' }, request],
    ['operator with an empty message: read as none', { ...request, W: 'operator', M: '' }, request],
    [
      'operator with a message over 200 characters: read as none',
      { ...request, W: 'operator', M: 'x'.repeat(201) },
      request,
    ],
    [
      'operator with a lone surrogate: read as none',
      { ...request, W: 'operator', M: 'a\ud800' },
      request,
    ],
    ['a message without operator: dropped', { ...request, M: 'Maintenance.' }, request],
  ])('%s', (_name, input, expected) => {
    expect(parseHandoffMessage(input)).toEqual(expected);
  });
});

/**
 * Two signing servers on one bus: A holds (recording each request it is routed: key,
 * requester, token, reason), B asks with `requestReason`; `sent` is every message on A's topic.
 */
async function signedPair(requestReason: HandoffClient['requestReason']) {
  const clock = new VirtualClock();
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(clock);
  const signing = { key: 'a fleet secret of 32 characters!' };
  const logger = recordingLogger().logger;
  const server = (jobId: string) =>
    new Handoff({ jobId, messenger, presence, scheduler: clock, logger, signing });
  const a = server('A');
  const b = server('B');
  const heard: unknown[] = [];
  const holder: HandoffClient = {
    name: 'PlayerData',
    receiveHandoffRequest: (key, requester, token, reason) =>
      void heard.push([key, requester, token, reason]),
    receiveHandoffReply: () => undefined,
  };
  a.register(holder);
  b.register({ ...holder, ...(requestReason ? { requestReason } : {}) });
  const sent: Array<Record<string, unknown>> = [];
  await messenger.subscribe(topicOf('A'), (message) => {
    sent.push(message as Record<string, unknown>);
  });
  await clock.advance(0);
  return { clock, messenger, b, heard, sent };
}

describe('a signed request with a reason', () => {
  it('is routed with its reason; re-sent with the reason removed, it is dropped', async () => {
    const { clock, messenger, b, heard, sent } = await signedPair((key) =>
      key === 'p1' ? 'support' : undefined,
    );
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1'));
    await clock.run(b.request('PlayerData', 'p2', 'A', 't2'));
    await clock.advance(0);
    expect(heard).toEqual([
      ['p1', 'B', 't1', 'support'],
      ['p2', 'B', 't2', undefined],
    ]);
    expect(sent[0]).toMatchObject({ K: 'p1', W: 'support', S: expect.any(String) });
    // p1's request exactly as signed, but with its reason removed: the signature covered it.
    const { W: _reason, ...withoutReason } = sent[0]!;
    await messenger.publish(topicOf('A'), withoutReason as never);
    await clock.advance(0);
    expect(heard).toHaveLength(2);
  });

  it('an operator’s kick message is signed too: re-sent with the message changed, it is dropped', async () => {
    const { clock, messenger, b, heard, sent } = await signedPair(() => ({
      message: 'Maintenance.',
    }));
    await clock.run(b.request('PlayerData', 'p1', 'A', 't1'));
    await clock.advance(0);
    expect(heard).toEqual([['p1', 'B', 't1', { message: 'Maintenance.' }]]);
    expect(sent[0]).toMatchObject({ W: 'operator', M: 'Maintenance.' });
    await messenger.publish(topicOf('A'), { ...sent[0]!, M: 'You are banned.' } as never);
    await clock.advance(0);
    expect(heard).toHaveLength(1);
  });
});
