import { describe, expect, it, vi } from 'vitest';
import { MAX_MESSAGE_BYTES, MessageFanOut, parseMessage } from '../src/ports.js';
import { recordingLogger } from './helpers.js';

function fanOut() {
  const log = recordingLogger();
  const released: string[] = [];
  const messages = new MessageFanOut({
    logger: log.logger,
    release: async (channel) => void released.push(channel),
  });
  return { log, released, messages };
}

describe('parseMessage', () => {
  it.each([
    ['a JSON object', '{"a":1}', { a: 1 }],
    ['an array', '[1]', undefined],
    ['a number', '1', undefined],
    ['null', 'null', undefined],
    ['not JSON', '{a', undefined],
    ['an object of exactly the limit', `{"a":"${'x'.repeat(MAX_MESSAGE_BYTES - 8)}"}`, {}],
    // 517 characters, 1,025 UTF-8 bytes: the limit counts bytes.
    ['an object one byte over it', `{"a":"${'é'.repeat(MAX_MESSAGE_BYTES / 2 - 4)}x"}`, undefined],
  ])('%s', (_, payload, expected) => {
    const parsed = parseMessage(payload);
    if (expected === undefined) expect(parsed).toBeUndefined();
    else expect(parsed).toMatchObject(expected);
  });
});

describe('MessageFanOut', () => {
  it('hands each handler of the channel its own copy, and no other channel a thing', () => {
    const { messages } = fanOut();
    const got: unknown[] = [];
    const handler = (message: unknown) => void got.push(message);
    messages.add('a', handler);
    messages.add('a', handler);
    messages.add('b', () => got.push('wrong channel'));
    messages.deliver('a', '{"n":1}');
    messages.deliver('c', '{"n":2}');
    expect(got).toEqual([{ n: 1 }, { n: 1 }]);
    expect(got[0]).not.toBe(got[1]);
  });

  it('parses a payload once for one handler, and once more for each further one', () => {
    const { messages } = fanOut();
    const got: unknown[] = [];
    const parse = vi.spyOn(JSON, 'parse');
    try {
      messages.add('a', (message) => void got.push(message));
      messages.deliver('a', '{"n":1}');
      expect(parse).toHaveBeenCalledTimes(1);
      // A first handler that throws does not pass its copy on to the next.
      const other = fanOut().messages;
      other.add('a', (message) => {
        got.push(message);
        throw new Error('game code broke');
      });
      other.add('a', (message) => void got.push(message));
      other.add('a', (message) => void got.push(message));
      other.deliver('a', '{"n":2}');
      expect(parse).toHaveBeenCalledTimes(4);
    } finally {
      parse.mockRestore();
    }
    expect(got).toEqual([{ n: 1 }, { n: 2 }, { n: 2 }, { n: 2 }]);
    expect(new Set(got).size).toBe(4);
  });

  it('drops a payload that is not a JSON object with a debug line, calling no handler', () => {
    const { messages, log } = fanOut();
    let calls = 0;
    messages.add('a', () => calls++);
    messages.deliver('a', '[1]');
    expect(calls).toBe(0);
    expect(log.lines).toEqual([
      { level: 'debug', message: 'ignored a message on a that is not a JSON object' },
    ]);
  });

  it('a handler that throws is logged and keeps the others from nothing', () => {
    const { messages, log } = fanOut();
    const got: unknown[] = [];
    messages.add('a', () => {
      throw new Error('game code broke');
    });
    messages.add('a', (message) => void got.push(message));
    messages.deliver('a', '{"n":1}');
    expect(got).toEqual([{ n: 1 }]);
    expect(log.lines.map((line) => line.level)).toEqual(['error']);
    expect(log.lines[0]?.message).toContain('a message handler of a threw');
    expect(log.lines[0]?.message).toContain('game code broke');
  });

  it('releases a channel when its last handler leaves, once; unsubscribe is idempotent', async () => {
    const { messages, released } = fanOut();
    const first = messages.add('a', () => undefined);
    const second = messages.add('a', () => undefined);
    messages.add('b', () => undefined);
    await first.unsubscribe();
    await first.unsubscribe();
    expect(released).toEqual([]);
    expect(messages.channels()).toEqual(['a', 'b']);
    await second.unsubscribe();
    await second.unsubscribe();
    expect(released).toEqual(['a']);
    expect(messages.channels()).toEqual(['b']);
  });

  it('the channel is gone from channels() by the time release runs', async () => {
    const log = recordingLogger();
    const seen: string[][] = [];
    const messages: MessageFanOut = new MessageFanOut({
      logger: log.logger,
      release: async () => void seen.push(messages.channels()),
    });
    await messages.add('a', () => undefined).unsubscribe();
    expect(seen).toEqual([[]]);
  });

  it('clear forgets every handler without releasing, and returns the channels', async () => {
    const { messages, released } = fanOut();
    let calls = 0;
    const subscription = messages.add('a', () => calls++);
    messages.add('b', () => calls++);
    expect(messages.clear()).toEqual(['a', 'b']);
    messages.deliver('a', '{}');
    await subscription.unsubscribe();
    expect(calls).toBe(0);
    expect(released).toEqual([]);
    expect(messages.channels()).toEqual([]);
  });
});
