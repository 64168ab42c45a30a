/**
 * Servers of one fleet on the virtual clock, for the tests of a lock handed over in the release
 * (`handOverLocks`): one store, one bus, one presence, and each server's handoff signing under
 * the fleet key unless told otherwise.
 */
import type { DataDriverEvent, DataDriverOptions, HandoffOptions } from '../src/index.js';
import { Handoff } from '../src/index.js';
import { MemoryMessenger, MemoryPresence } from '../src/testing.js';
import { callsSince, testBed } from './helpers.js';

export type Options = Partial<DataDriverOptions<{ coins: number }>>;

/** A hand-over is asked and honoured only between signing servers. */
export const FLEET_KEY = 'a fleet secret of 32 characters!';

export function handOverFleet() {
  const bed = testBed();
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(bed.clock);
  const stores: Record<string, ReturnType<typeof bed.server>['store']> = {};
  /** `signing`: true for the fleet key, false for none, or the handoff's own. */
  const server = (
    jobId: string,
    options: Options = { handOverLocks: true },
    signing: boolean | HandoffOptions['signing'] = true,
  ) => {
    const signs = signing === true ? { key: FLEET_KEY } : signing || undefined;
    const handoff = new Handoff({
      jobId,
      messenger,
      presence,
      scheduler: bed.clock,
      ...(signs ? { signing: signs } : {}),
    });
    const { driver, store } = bed.server(jobId, { handoff, ...options });
    stores[jobId] = store;
    return driver;
  };
  const of = <T extends DataDriverEvent['type']>(
    type: T,
  ): Extract<DataDriverEvent, { type: T }>[] =>
    bed.events.filter(
      (event): event is Extract<DataDriverEvent, { type: T }> => event.type === type,
    );
  return { bed, messenger, stores, server, of, since: callsSince(bed.store) };
}
