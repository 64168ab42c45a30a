import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/ports/errors.js';
import type { JsonObject } from '../../src/ports/json.js';
import {
  type DataMessageHandler,
  type InboxMessage,
  runHandlers,
} from '../../src/rules/messages/index.js';

const gift = (id: string, coins: number): InboxMessage => ({ id, body: { coins }, at: 1 });

/** A handler adding the message's coins, and misbehaving on the messages named. */
const handler: DataMessageHandler = (data, message) => {
  const coins = (message.body as { coins: number }).coins;
  data.coins = (data.coins as number) + coins;
  if (message.id.startsWith('throw')) throw new Error('handler bug');
  if (message.id.startsWith('async')) return Promise.resolve();
  if (message.id.startsWith('date')) (data as Record<string, unknown>).when = new Date(0);
  if (message.id.startsWith('cycle')) (data as Record<string, unknown>).self = data;
  return undefined;
};

describe("running the game's onMessage", () => {
  it.each<[string, string[], number, string[], string[]]>([
    ['every message applies', ['a', 'b'], 13, ['a', 'b'], []],
    [
      'a throwing handler fails its message alone',
      ['a', 'throw-1', 'b'],
      13,
      ['a', 'b'],
      ['throw-1'],
    ],
    ['a handler returning a promise fails its message', ['async-1', 'a'], 11, ['a'], ['async-1']],
    ['a handler leaving a Date fails its message', ['date-1'], 10, [], ['date-1']],
    ['a handler leaving a cycle fails its message', ['cycle-1', 'b'], 12, ['b'], ['cycle-1']],
    [
      'a message that always throws stays failed, the rest apply',
      ['throw-1', 'throw-2'],
      10,
      [],
      ['throw-1', 'throw-2'],
    ],
  ])('%s', (_, ids, coins, applied, failed) => {
    const data: JsonObject = { coins: 10 };
    const messages = ids.map((id) => gift(id, id === 'b' ? 2 : 1));
    const run = runHandlers('p1', data, messages, handler);
    expect(run.data.coins).toBe(coins);
    expect(run.applied).toEqual(applied);
    expect(run.failed.map((item) => item.id)).toEqual(failed);
    for (const item of run.failed) {
      expect(item.error).toMatchObject({
        code: ErrorCode.MessageFailed,
        details: { key: 'p1', id: item.id },
      });
    }
    // The data given is never changed: the pass writes run.data, or nothing.
    expect(data).toEqual({ coins: 10 });
  });

  it('keeps the thrown error as the cause', () => {
    const run = runHandlers('p1', { coins: 0 }, [gift('throw-1', 1)], handler);
    expect((run.failed[0]!.error.cause as Error).message).toBe('handler bug');
  });

  it('returns the data given when nothing applies', () => {
    const data: JsonObject = { coins: 0 };
    expect(runHandlers('p1', data, [], handler).data).toBe(data);
  });
});

describe('what a handler returns', () => {
  const adding: (result: unknown) => DataMessageHandler = (result) => (data) => {
    data.coins = (data.coins as number) + 1;
    return result;
  };

  it.each<[string, unknown, boolean]>([
    ['undefined', undefined, true],
    ['null', null, true],
    ['a number', 3, true],
    // biome-ignore lint/suspicious/noThenProperty: a `then` is what this row hands the rule
    ['an object whose then is not a function', { then: 1 }, true],
    ['a promise', Promise.resolve(), false],
    // biome-ignore lint/suspicious/noThenProperty: a `then` is what this row hands the rule
    ['a thenable object', { then: () => undefined }, false],
    // biome-ignore lint/suspicious/noThenProperty: a `then` is what this row hands the rule
    ['a thenable function', Object.assign(() => undefined, { then: () => undefined }), false],
  ])('%s: applies %s', (_, result, applies) => {
    const run = runHandlers('p1', { coins: 0 }, [gift('m', 1)], adding(result));
    expect(run.applied).toEqual(applies ? ['m'] : []);
    expect(run.data.coins).toBe(applies ? 1 : 0);
  });

  it.each<[string, DataMessageHandler, string]>([
    [
      'a throw',
      () => {
        throw new Error('bug');
      },
      'onMessage threw',
    ],
    ['a promise', () => Promise.resolve(), 'onMessage returned a promise'],
    [
      'a Date left in the data',
      (data) => {
        (data as Record<string, unknown>).when = new Date(0);
      },
      'onMessage left data.when is a Date',
    ],
  ])('names why a message failed: %s', (_, failing, words) => {
    const run = runHandlers('p1', { coins: 0 }, [gift('m', 1)], failing);
    expect(run.failed[0]?.error.message).toContain(words);
    expect(run.failed[0]?.error.message).toContain('"m" to p1 did not apply');
  });
});
