/**
 * Issue 21: an event nobody listens to, of a type the logger never logs, is dropped before any
 * object is built for it (the stamp is never taken); a listened or logged one is delivered.
 */
import { describe, expect, it } from 'vitest';
import { describeEvent, EventStream, LOGGED_EVENT_TYPES } from '../src/events/event-stream.js';
import type { DataDriverEvent, DataDriverEventType } from '../src/events/events.js';
import { DataDriverError, ErrorCode } from '../src/ports/errors.js';
import { recordingLogger } from './helpers.js';

/** Every event type: the compiler refuses this object when a type is missing. */
const ALL_TYPES: Record<DataDriverEventType, true> = {
  'load.started': true,
  'load.waiting': true,
  'load.retrying': true,
  'load.loaded': true,
  'load.failed': true,
  'lock.taken': true,
  'lock.lost': true,
  'presence.read': true,
  'handoff.request.sent': true,
  'handoff.request.failed': true,
  'handoff.request.received': true,
  'handoff.reply.sent': true,
  'handoff.reply.received': true,
  'profile.kicked': true,
  'profile.saved': true,
  'profile.save-failed': true,
  'profile.releasing': true,
  'profile.released': true,
  'profile.restored': true,
  'profile.erased': true,
  'profile.release-failed': true,
  'profile.hook-failed': true,
  'profile.adopted': true,
  'trade.committed': true,
  'trade.aborted': true,
  'trade.undecided': true,
  'trade.recovered': true,
  'presence.beat': true,
  'presence.beat-failed': true,
  'handoff.subscribe-failed': true,
  'handoff.subscribed': true,
  'handoff.rejected': true,
  'handoff.limited': true,
  'driver.close-timeout': true,
  'message.sent': true,
  'message.applied': true,
  'message.duplicate': true,
  'message.failed': true,
  'message.inbox-failed': true,
  'message.delivered': true,
  'message.delivery-failed': true,
  'driver.health': true,
};

function stream() {
  const log = recordingLogger();
  let stamps = 0;
  const events = new EventStream(log.logger, () => {
    stamps += 1;
    return { time: 1, jobId: 'A' };
  });
  return { events, log, stamps: () => stamps };
}

describe('EventStream', () => {
  it('builds nothing for an unlogged event while nobody listens: the stamp is never taken', () => {
    const { events, log, stamps } = stream();
    expect(events.listening('profile.saved')).toBe(false);
    events.emit({ type: 'profile.saved', key: 'p1', reason: 'manual', durationMs: 3, driver: 'D' });
    expect(stamps()).toBe(0);
    expect(log.lines).toEqual([]);
  });

  it('logs a logged type with nobody listening, stamped once', () => {
    const { events, log, stamps } = stream();
    expect(events.listening('lock.lost')).toBe(true);
    events.emit({ type: 'lock.lost', key: 'p1', driver: 'D' });
    expect(stamps()).toBe(1);
    expect(log.warnings()).toEqual(['lost the lock of p1; the profile is deactivated.']);
  });

  it('delivers every event to a listener, with the driver name and the stamp, until it leaves', () => {
    const { events, stamps } = stream();
    const seen: DataDriverEvent[] = [];
    const leave = events.on((event) => seen.push(event));
    events.emit({ type: 'profile.saved', key: 'p1', reason: 'manual', durationMs: 3, driver: 'D' });
    expect(seen).toEqual([
      {
        type: 'profile.saved',
        key: 'p1',
        reason: 'manual',
        durationMs: 3,
        driver: 'D',
        time: 1,
        jobId: 'A',
      },
    ]);
    leave();
    events.emit({ type: 'profile.saved', key: 'p1', reason: 'manual', durationMs: 3, driver: 'D' });
    expect(seen).toHaveLength(1);
    expect(stamps()).toBe(1);
  });

  it('lists exactly the types the logger logs: each of them logs a line, no other type does', () => {
    // Every field any event has, each at a value that makes its type log when it can.
    const fields = {
      key: 'p1',
      driver: 'D',
      jobId: 'A',
      time: 0,
      first: true,
      reason: 'stolen',
      from: { jobId: 'B', token: 't', time: 0, presence: true },
      holder: 'B',
      error: new DataDriverError(ErrorCode.BackendFailed, 'down'),
      outcome: 'unsaved',
      keys: ['p1'],
      topic: 'T',
      direction: 'publish',
      perMinute: 1,
      trade: 't1',
      waitedMs: 0,
      id: 'm1',
      ids: ['m1'],
      step: 'read',
      to: 'p2',
    };
    for (const type of Object.keys(ALL_TYPES) as DataDriverEventType[]) {
      const line = describeEvent({ ...fields, type } as unknown as DataDriverEvent);
      expect(line !== undefined, type).toBe(LOGGED_EVENT_TYPES.has(type));
    }
  });
});
