/**
 * A test bed for profile messages: servers on one clock and store (`testBed`), each with an
 * `onMessage` that adds `body.coins` and records who applied what, when.
 */
import type { DataDriverOptions, ProfileMessage } from '../../src/index.js';
import type { ProfileRecord } from '../../src/rules.js';
import type { MemoryStore } from '../../src/testing.js';
import { type Bed, testBed } from '../helpers.js';

export interface Applied {
  readonly server: string;
  readonly key: string;
  readonly id: string;
  readonly at: number;
}

type Options = Partial<DataDriverOptions<{ coins: number }>>;

export function messagesBed(bed: Bed = testBed()) {
  const applied: Applied[] = [];
  const grant =
    (server: string) =>
    (profile: { key: string; data: { coins: number } }, message: ProfileMessage): void => {
      const body = message.body as { coins?: number; throws?: boolean };
      if (body.throws) throw new Error(`refused ${message.id}`);
      profile.data.coins += body.coins ?? 0;
      applied.push({ server, key: profile.key, id: message.id, at: bed.clock.now() });
    };
  return {
    bed,
    applied,
    grant,
    /** A server whose `onMessage` grants coins. */
    server(jobId: string, options: Options = {}) {
      return bed.server(jobId, { onMessage: grant(jobId), ...options });
    },
    /** The ids applied, in order. */
    ids: () => applied.map((entry) => entry.id),
  };
}

/** The inbox record as stored. */
export function storedInbox(store: MemoryStore, key: string) {
  return store.peek(`PlayerData#inbox/${key}`) as
    | { pending: Array<{ id: string }>; done: Array<[string, number]> }
    | undefined;
}

/** The ids pending in the inbox as stored. */
export function pendingIds(store: MemoryStore, key: string): string[] {
  return storedInbox(store, key)?.pending.map((message) => message.id) ?? [];
}

/** The applied ids the profile record keeps. */
export function appliedIds(store: MemoryStore, key: string): readonly string[] {
  const record = store.peek(`PlayerData/${key}`) as ProfileRecord | undefined;
  return record?.meta.messages?.applied ?? [];
}
