/**
 * The key layout (src/keys.ts): every name parses back into its prefix, family and key, so no
 * two meet; a record's versions hash to its slot. Checked over every short string of an
 * alphabet made of the characters that matter (braces, the escape, its digits, separators),
 * then on a real redis-server with the collisions issue 14 and issue 16 reported.
 */
import { ErrorCode } from '@datadriver/core';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger, RedisPresence, RedisStore } from '../src/index.js';
import { channelOf, presenceKey, recordKey, versionKeys } from '../src/keys.js';
import { keySlot } from './support/key-slot.js';
import { Clients, uniquePrefix } from './support/redis.js';

const FAMILIES = {
  record: (prefix: string, key: string) => recordKey(prefix, key),
  index: (prefix: string, key: string) => versionKeys(prefix, key).index,
  records: (prefix: string, key: string) => versionKeys(prefix, key).records,
  presence: (prefix: string, key: string) => presenceKey(prefix, key),
  channel: (prefix: string, key: string) => channelOf(prefix, key),
};
type Family = keyof typeof FAMILIES;
const SUFFIXES: Record<string, Family> = {
  '': 'record',
  ':versions': 'index',
  ':versions:records': 'records',
  ':presence': 'presence',
  ':channel': 'channel',
};

/** Every string of `alphabet` up to `length` characters, the empty one included. */
function strings(alphabet: readonly string[], length: number): string[] {
  let level = [''];
  const all = [''];
  for (let size = 1; size <= length; size += 1) {
    level = level.flatMap((head) => alphabet.map((char) => head + char));
    all.push(...level);
  }
  return all;
}

/** A name read back by the layout's own rules, written apart from src to check it. */
function parse(name: string): { prefix: string; key: string; family: Family | undefined } {
  const open = name.indexOf('{');
  const close = name.indexOf('}', open);
  const tag = name.slice(open + 1, close);
  const key = tag === '%' ? '' : tag.replace(/%(25|7D)/g, (_, code) => (code === '25' ? '%' : '}'));
  return { prefix: name.slice(0, open), key, family: SUFFIXES[name.slice(close + 1)] };
}

const ALPHABET = ['{', '}', '%', '7', 'D', ':', '/', 'a'];
const KEYS = [
  ...strings(ALPHABET, 3),
  // Issue 14's and issue 16's keys, longer than the enumeration reaches.
  'PlayerData/{t}u',
  'PlayerData/{t}u:versions:records',
  'PlayerData/user}42',
  'PlayerData/{}x',
  'CKPresence:srv/x',
  'srv/x',
  'A/B/y',
  'PlayerData/é✓🎮',
  'CKHandoff_srv-1',
];
const PREFIXES = ['', 'dd:', 'dd:A/', 'dd:CKPresence:', 'a%7D', '%'];

describe('key layout', () => {
  it('reads every name back as its prefix, family and key, so no two names meet', () => {
    const seen = new Map<string, string>();
    for (const prefix of PREFIXES) {
      for (const key of KEYS) {
        for (const [family, nameOf] of Object.entries(FAMILIES)) {
          const name = nameOf(prefix, key);
          expect(parse(name), name).toEqual({ prefix, key, family });
          const who = JSON.stringify([prefix, family, key]);
          expect(seen.get(name) ?? who, name).toBe(who);
          seen.set(name, who);
        }
      }
    }
    expect(seen.size).toBe(PREFIXES.length * KEYS.length * 5);
  });

  it("hashes a record's versions to the record's slot, whatever the key holds", () => {
    // The slot function against the Cluster spec's own examples.
    expect(keySlot('somekey')).toBe(11058);
    expect(keySlot('foo{hash_tag}')).toBe(2515);
    for (const prefix of PREFIXES) {
      for (const key of KEYS) {
        const slot = keySlot(recordKey(prefix, key));
        const { index, records } = versionKeys(prefix, key);
        expect([keySlot(index), keySlot(records)], `${prefix} ${key}`).toEqual([slot, slot]);
      }
    }
  });

  it('spreads records of different keys over the slots (the tag is the key, not the prefix)', () => {
    const slots = new Set(
      Array.from({ length: 200 }, (_, n) => keySlot(recordKey('dd:', `PlayerData/user-${n}`))),
    );
    expect(slots.size).toBeGreaterThan(190);
  });

  it('names records, versions, presence and channels as the README says', () => {
    expect(recordKey('dd:', 'PlayerData/user-42')).toBe('dd:{PlayerData/user-42}');
    expect(versionKeys('dd:', 'PlayerData/user-42')).toEqual({
      index: 'dd:{PlayerData/user-42}:versions',
      records: 'dd:{PlayerData/user-42}:versions:records',
    });
    expect(recordKey('dd:', 'PlayerData/50%}')).toBe('dd:{PlayerData/50%25%7D}');
    expect(recordKey('dd:', '')).toBe('dd:{%}');
    expect(presenceKey('dd:', 'srv-1')).toBe('dd:{srv-1}:presence');
    expect(channelOf('dd:', 'CKHandoff_srv-1')).toBe('dd:{CKHandoff_srv-1}:channel');
  });
});

describe('key layout on redis-server', () => {
  const clients = new Clients();
  let raw: Redis;
  let prefix: string;
  beforeAll(async () => {
    raw = await clients.open();
    prefix = uniquePrefix('layout');
  });
  afterAll(() => clients.quitAll());

  it("never writes or erases another player's record through versions: {t}u and {t}u:versions:records", async () => {
    const store = new RedisStore({ client: raw, prefix, versions: { keep: 5 } });
    const other = 'PlayerData/{t}u:versions:records';
    await store.update(other, () => ({ coins: 7 }), { keepVersion: true });
    const before = await raw.hgetall(store.keyOf(other));
    await store.update('PlayerData/{t}u', () => ({ coins: 1 }), { keepVersion: true });
    await store.update('PlayerData/{t}u', () => ({ coins: 2 }), { keepVersion: true });
    // What erase does: the record under the lock, then both versions keys.
    await store.update('PlayerData/{t}u', () => null);
    await store.versions!.purge('PlayerData/{t}u');
    expect(await raw.hgetall(store.keyOf(other))).toEqual(before);
    expect(await store.get(other)).toEqual({ coins: 7 });
    expect(await store.versions!.list(other)).toHaveLength(1);
  });

  it('keeps stores whose prefixes nest apart: dd: with A/B/y and dd:A/ with B/y', async () => {
    const outer = new RedisStore({ client: raw, prefix });
    const inner = new RedisStore({ client: raw, prefix: `${prefix}A/` });
    await outer.update('A/B/y', () => ({ owner: 'outer' }));
    await inner.update('B/y', () => ({ owner: 'inner' }));
    expect(outer.keyOf('A/B/y')).not.toBe(inner.keyOf('B/y'));
    expect(await outer.get('A/B/y')).toEqual({ owner: 'outer' });
    expect(await inner.get('B/y')).toEqual({ owner: 'inner' });
  });

  it('keeps a driver named CKPresence:srv apart from the presence of jobId srv/x', async () => {
    const store = new RedisStore({ client: raw, prefix });
    const presence = new RedisPresence({ client: raw, prefix });
    await store.update('CKPresence:srv/x', () => ({ coins: 3 }));
    await presence.set('srv/x', '1', 10);
    expect(await store.get('CKPresence:srv/x')).toEqual({ coins: 3 });
    expect(await presence.get('srv/x')).toBe('1');
    expect(await raw.type(store.keyOf('CKPresence:srv/x'))).toBe('hash');
    expect(await raw.type(presence.keyOf('srv/x'))).toBe('string');
  });

  it('refuses a prefix with a brace, or one that is not a string, at construction', () => {
    const make = [
      (p: unknown) => new RedisStore({ client: raw, prefix: p as string }),
      (p: unknown) => new RedisPresence({ client: raw, prefix: p as string }),
      (p: unknown) => new RedisMessenger({ client: raw, prefix: p as string }),
    ];
    for (const construct of make) {
      for (const bad of ['{dd}:', 'dd}', 'd{d']) {
        expect(() => construct(bad)).toThrowError(
          expect.objectContaining({
            code: ErrorCode.InvalidConfig,
            message: expect.stringMatching(/must hold neither.*Remove the braces/),
          }),
        );
      }
      expect(() => construct(5)).toThrowError(
        expect.objectContaining({ code: ErrorCode.InvalidConfig }),
      );
    }
  });
});
