/** What a session's last write leaves for its next one (`session/written-snapshot.ts`): table rows. */
import { describe, expect, it } from 'vitest';
import type { StoreSnapshot } from '../src/ports.js';
import type { ProfileRecord } from '../src/rules/index.js';
import type { Written } from '../src/session/guarded-write.js';
import {
  ReleaseWrite,
  SaveWrite,
  SessionWriter,
  type WriteLanding,
} from '../src/session/session-writes.js';
import { afterWrite, type WrittenSnapshot } from '../src/session/written-snapshot.js';

const parsedBefore = { coins: 1 };
const before: WrittenSnapshot = {
  json: '{"coins":1}',
  version: 3,
  stored: { record: { data: parsedBefore, meta: { version: 3 } }, version: 'v3' },
  parsed: parsedBefore,
  at: 1_000,
};
const built: ProfileRecord = { data: { coins: 2 }, meta: { version: 4 } };
const theirs: ProfileRecord = { data: { coins: 9 }, meta: { version: 9 } };
const snapshotOf = (record: ProfileRecord, version: string): StoreSnapshot => ({
  record: record as unknown as StoreSnapshot['record'],
  version,
});
const landed = (
  kind: string,
  stored: ProfileRecord,
  wrote: boolean,
): Written<{ kind: string }> => ({
  ok: true,
  decision: { kind },
  stored,
  snapshot: snapshotOf(stored, `v${stored.meta.version}`),
  wrote,
});

describe('afterWrite', () => {
  it.each([
    [
      'a failed write: the snapshot is unknown (it may have committed), the data as before',
      { ok: false, error: new Error('down'), final: false } as unknown as Written<{ kind: string }>,
      '{"coins":2}',
      { ...before, stored: undefined, parsed: undefined },
    ],
    [
      'a save that stored what it built: its JSON, version, snapshot and parsed data',
      landed('write', built, true),
      '{"coins":2}',
      {
        json: '{"coins":2}',
        version: 4,
        stored: snapshotOf(built, 'v4'),
        parsed: built.data,
        at: 2_000,
      },
    ],
    [
      'a save that wrote nothing new (its own release was there): no parsed data to share',
      landed('already-released', theirs, false),
      '{"coins":2}',
      {
        json: '{"coins":2}',
        version: 9,
        stored: snapshotOf(theirs, 'v9'),
        parsed: undefined,
        at: 2_000,
      },
    ],
    [
      'a lost lock: the other server record is the next start, the data JSON as before',
      landed('lost', theirs, false),
      '{"coins":2}',
      { ...before, stored: snapshotOf(theirs, 'v9'), parsed: undefined, at: 2_000 },
    ],
    [
      'a write of no data (a marker, an erase): the store record, the data JSON as before',
      landed('write', built, true),
      undefined,
      { ...before, stored: snapshotOf(built, 'v4'), parsed: undefined, at: 2_000 },
    ],
  ] as const)('%s', (_, result, json, expected) => {
    expect(afterWrite(before, result, 2_000, json)).toEqual(expected);
  });
});

describe("a save's and a release's terms after the last write", () => {
  const context = {
    settings: { migrations: [], handOverLocks: false },
    identity: { jobId: 'A' },
    scheduler: { now: () => 5_000 },
    link: { beatsPresence: false },
  } as unknown as ConstructorParameters<typeof SessionWriter>[0];
  const session = {
    userIds: [],
    messages: { current: { inbox: [], applied: [], outbox: [] } },
    handOver: () => undefined,
  } as unknown as ConstructorParameters<typeof SessionWriter>[3];
  const writer = new SessionWriter(context, 'p1', 'tA', session, 'PlayerData/p1');
  const lock = { jobId: 'A', token: 'tA', time: 1_000, presence: false };
  const stored: ProfileRecord = { data: parsedBefore, meta: { version: 3, lock } };
  // Nothing lands here: these tests call the writes' rules alone.
  const landing = {} as WriteLanding;
  const writes = [
    [
      'save',
      (json: string, last: WrittenSnapshot) =>
        new SaveWrite(landing, writer, json, last, 5_000, 'manual', 5_000, false),
    ],
    [
      'release',
      (json: string, last: WrittenSnapshot) => new ReleaseWrite(landing, writer, json, last, 5_000),
    ],
  ] as const;

  it.each(writes)('a %s of changed data keeps a version and parses its JSON', (_, make) => {
    const write = make('{"coins":2}', before);
    expect(write.keepVersion).toBe(true);
    const next = write.next(stored, write.decide(stored) as never);
    expect(next?.data).toEqual({ coins: 2 });
  });

  it.each(writes)('a %s of the same JSON shares the data the last write parsed', (_, make) => {
    const write = make('{"coins":1}', before);
    expect(write.keepVersion).toBe(false);
    const next = write.next(stored, write.decide(stored) as never);
    expect(next?.data).toBe(parsedBefore);
    const unparsed = make('{"coins":1}', { ...before, parsed: undefined });
    const again = unparsed.next(stored, unparsed.decide(stored) as never);
    expect(again?.data).toEqual(parsedBefore);
    expect(again?.data).not.toBe(parsedBefore);
  });
});
