/** The one helper of every lock-guarded write: what it returns, wraps and ends retries on. */
import { describe, expect, it } from 'vitest';
import type { Store } from '../src/ports.js';
import { decideSave, lockedRecord, type SaveDecision } from '../src/rules/index.js';
import { keysOf } from '../src/rules/keys.js';
import { type GuardedWrite, guardedWrite } from '../src/session/guarded-write.js';
import { FaultyStore, MemoryStore, VirtualClock } from '../src/testing.js';

const writer = { jobId: 'A', token: 'tA', now: 0, presence: false };

function setup(store: Store = new MemoryStore({ maxRecordBytes: 200 })) {
  const clock = new VirtualClock();
  const ctx = { store, scheduler: clock, keys: keysOf('PlayerData') };
  return { clock, ctx };
}

const save = (data: object = { coins: 1 }): GuardedWrite<SaveDecision> => ({
  key: 'p1',
  what: 'save',
  decide: (record) => decideSave(record, 'tA'),
  next: (record, decision) =>
    decision.kind === 'lost' ? undefined : lockedRecord(record, data as never, writer),
});

describe('guardedWrite', () => {
  it("writes what the rule allows and returns the last run's decision and the stored record", async () => {
    const memory = new MemoryStore();
    memory.put('PlayerData/p1', lockedRecord(undefined, { coins: 0 }, writer) as never);
    const { ctx } = setup(memory);
    const written = await guardedWrite(ctx, save());
    expect(written).toMatchObject({
      ok: true,
      decision: { kind: 'write' },
      stored: { data: { coins: 1 }, meta: { version: 2 } },
    });
  });

  it('writes nothing when the rule says lost, and says so', async () => {
    const { ctx } = setup();
    const written = await guardedWrite(ctx, save());
    expect(written).toMatchObject({ ok: true, decision: { kind: 'lost' }, stored: undefined });
  });

  const failures: Array<[string, () => Store, string, boolean]> = [
    [
      'a store failure is Data.BackendFailed naming the write, and retried',
      () => {
        const store = new FaultyStore(new MemoryStore());
        store.faults.inject({ kind: 'fail', operation: 'update' });
        return store;
      },
      'Data.BackendFailed: injected failure of update PlayerData/p1',
      false,
    ],
    [
      'an untyped store failure is wrapped as Data.BackendFailed',
      () => ({
        specificationVersion: 'v2',
        update: async () => {
          throw new Error('socket closed');
        },
        get: async () => undefined,
      }),
      'Data.BackendFailed: save of p1 failed: socket closed',
      false,
    ],
    [
      'a record that is not a DataDriver record ends the retries, left untouched',
      () => {
        const store = new MemoryStore();
        store.put('PlayerData/p1', { coins: 3 });
        return store;
      },
      'Data.InvalidRecord: the value stored under p1 is not a DataDriver record; it was left untouched',
      true,
    ],
    [
      'a store that resolves without running the transform ends the retries',
      () => ({
        specificationVersion: 'v2',
        update: async () => undefined,
        get: async () => undefined,
      }),
      'Data.BackendFailed: save of p1 failed: the store resolved without running the transform',
      true,
    ],
  ];
  it.each(failures)('%s', async (_name, makeStore, message, final) => {
    const { ctx } = setup(makeStore());
    const written = await guardedWrite(ctx, save());
    expect(written).toMatchObject({ ok: false, final, error: { message } });
  });

  it('a record over the store limit is refused before it is sent, and ends the retries', async () => {
    const memory = new MemoryStore({ maxRecordBytes: 200 });
    const held = JSON.stringify(lockedRecord(undefined, { coins: 0 }, writer));
    memory.putJson('PlayerData/p1', held);
    const { ctx } = setup(memory);
    const written = await guardedWrite(ctx, save({ note: 'x'.repeat(300) }));
    expect(written).toMatchObject({ ok: false, final: true, error: { code: 'Data.TooLarge' } });
    expect(memory.peekJson('PlayerData/p1')).toBe(held);
  });

  it('a migration that throws in a load is Data.InvalidRecord: the record cannot be loaded', async () => {
    const { ctx } = setup();
    const written = await guardedWrite(ctx, {
      key: 'p1',
      what: 'load',
      decide: () => 'take',
      next: () => {
        throw new Error('bad step');
      },
    });
    expect(written).toMatchObject({
      ok: false,
      final: true,
      error: { message: 'Data.InvalidRecord: the record of p1 cannot be loaded: bad step' },
    });
  });
});
