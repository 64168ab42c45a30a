/** What the package refuses or reshapes before Colyseus or the driver sees it. */
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { describe, expect, it } from 'vitest';
import { ColyseusHost, closeReason, MAX_USER_ID_BYTES, userIdFromAuth } from '../src/index.js';
import { checkClient, checkRoom } from '../src/room-lifecycle.js';
import { checkedUserId } from '../src/user-id.js';

const client = (auth: unknown) => ({ sessionId: 's1', auth }) as never;

describe('closeReason', () => {
  it('keeps a message of up to 123 bytes as it is', () => {
    expect(closeReason('You joined another server.')).toBe('You joined another server.');
    const exact = 'x'.repeat(123);
    expect(closeReason(exact)).toBe(exact);
  });

  it('cuts a longer one to 123 bytes of UTF-8 on a character boundary, with an ellipsis', () => {
    const reason = closeReason('é'.repeat(100)); // 200 bytes
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).toBe(`${'é'.repeat(60)}…`);
    const emoji = closeReason('🎮'.repeat(40)); // 4 bytes each, never split
    expect(emoji).toBe(`${'🎮'.repeat(30)}…`);
  });

  it('counts a lone surrogate as the 3 bytes it is sent as', () => {
    const reason = closeReason('\uD800'.repeat(50));
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  });
});

describe('the kick close code', () => {
  it.each([999, 1000, 2999, 5000, 4100.5, Number.NaN])(
    'refuses %s: only WebSocket application codes (3000 to 4999)',
    (kickCode) => {
      expect(() => new ColyseusHost({ kickCode })).toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidConfig }),
      );
    },
  );

  it('a given jobId is the host jobId', () => {
    expect(new ColyseusHost({ jobId: 'colyseus-7' }).jobId).toBe('colyseus-7');
  });
});

describe('userIdFromAuth', () => {
  it("reads a string auth, or the auth object's own userId, else its own id", () => {
    expect(userIdFromAuth(client('u-1'))).toBe('u-1');
    expect(userIdFromAuth(client({ userId: 'u-2', id: 'other' }))).toBe('u-2');
    expect(userIdFromAuth(client({ id: 'u-3' }))).toBe('u-3');
    expect(userIdFromAuth(client({ id: 42 }))).toBe('42');
  });

  it('finds none in inherited fields, unsafe numbers, other types or a missing auth', () => {
    for (const auth of [
      Object.create({ userId: 'inherited' }),
      JSON.parse('{"__proto__": {"userId": "polluted"}}'),
      { id: 2 ** 60 },
      { userId: ['u'] },
      { userId: { toString: () => 'u' } },
      true,
      undefined,
      null,
    ]) {
      expect(userIdFromAuth(client(auth))).toBe('');
      expect(() => checkedUserId(userIdFromAuth, client(auth))).toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidArgument }),
      );
    }
  });

  it('reads id only when the auth has no own userId: a userId of null or 1.5 is refused', () => {
    for (const userId of [null, undefined, 1.5, '', false]) {
      expect(userIdFromAuth(client({ userId, id: 'fallback' }))).toBe('');
    }
    const inherited = Object.assign(Object.create({ userId: 'inherited' }), { id: 'own' });
    expect(userIdFromAuth(client(inherited))).toBe('own');
  });

  it('a custom userIdOf must return a non-empty string', () => {
    const returns = (value: unknown) => () => value as string;
    for (const value of ['', 7, undefined, {}]) {
      expect(() => checkedUserId(returns(value), client({}))).toThrow(DataDriverError);
    }
    expect(checkedUserId(returns('steam:7656'), client({}))).toBe('steam:7656');
  });
});

describe('checked user ids', () => {
  const id = (value: string) => checkedUserId(() => value, client({}));
  const refused = expect.objectContaining({ code: ErrorCode.InvalidArgument });

  it('takes up to 256 UTF-8 bytes, surrogate pairs included', () => {
    expect(MAX_USER_ID_BYTES).toBe(256);
    for (const value of ['x'.repeat(256), 'é'.repeat(128), '🎮'.repeat(64)]) {
      expect(id(value)).toBe(value);
    }
  });

  it('refuses 257 bytes and more, without quoting the id', () => {
    for (const value of ['x'.repeat(257), `${'é'.repeat(128)}x`, 'y'.repeat(4_000_000)]) {
      expect(() => id(value)).toThrow(refused);
      expect(() => id(value)).toThrow(/UTF-8 bytes, over the 256 allowed$/);
    }
  });

  it('refuses a lone surrogate, high or low, anywhere', () => {
    for (const value of ['\uD800', 'a\uDFFFb', 'ok\uD83C', '\uDFAE\uD83C']) {
      expect(() => id(value)).toThrow(refused);
      expect(() => id(value)).toThrow(/lone surrogate/);
    }
  });
});

describe('rooms and clients', () => {
  it('refuses what is not a Colyseus room or client', () => {
    for (const room of [undefined, null, {}, { roomId: 'r' }, { roomId: 1, _events: {} }]) {
      expect(() => checkRoom(room)).toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidArgument }),
      );
    }
    for (const candidate of [undefined, {}, { sessionId: '' }, { sessionId: 's', ref: {} }]) {
      expect(() => checkClient(candidate)).toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidArgument }),
      );
    }
  });
});
