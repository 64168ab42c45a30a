/**
 * The seed's handoff timings, each pinned to the millisecond: a beat every 3 s with a 10 s
 * TTL, one presence retry after 0.25 s, one message retry after 0.5 s.
 */
import { describe, expect, it } from 'vitest';
import {
  DataDriver,
  Handoff,
  type JsonObject,
  type Messenger,
  type Presence,
  type Scheduler,
} from '../src/index.js';
import type { MessageHandler, Subscription } from '../src/ports.js';
import {
  FaultyMessenger,
  FaultyPresence,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { recordingLogger } from './helpers.js';

/** When (ms since the log was made), what, and with which arguments. */
type Call = readonly [atMs: number, operation: string, ...args: unknown[]];

/** Each call that reaches a port, with the virtual time it arrived. */
class CallLog {
  readonly calls: Call[] = [];
  private readonly origin: number;
  constructor(private readonly clock: VirtualClock) {
    this.origin = clock.now();
  }
  note(operation: string, ...args: unknown[]): void {
    this.calls.push([this.clock.now() - this.origin, operation, ...args]);
  }
}

class RecordingPresence extends CallLog implements Presence {
  readonly specificationVersion = 'v1';
  constructor(
    private readonly inner: Presence,
    clock: VirtualClock,
  ) {
    super(clock);
  }
  set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.note('set', key, value, ttlSeconds);
    return this.inner.set(key, value, ttlSeconds);
  }
  get(key: string): Promise<string | undefined> {
    this.note('get', key);
    return this.inner.get(key);
  }
}

class RecordingMessenger extends CallLog implements Messenger {
  readonly specificationVersion = 'v1';
  constructor(
    private readonly inner: Messenger,
    clock: VirtualClock,
  ) {
    super(clock);
  }
  publish(topic: string, message: JsonObject): Promise<void> {
    this.note('publish', topic);
    return this.inner.publish(topic, message);
  }
  subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
    return this.inner.subscribe(topic, handler);
  }
}

/** The recorders sit in front of the faults, so a failed attempt is noted too. */
function setup() {
  const clock = new VirtualClock();
  const presence = new FaultyPresence(new MemoryPresence(clock), { scheduler: clock });
  const messenger = new FaultyMessenger(new MemoryMessenger(), { scheduler: clock });
  const presenceCalls = new RecordingPresence(presence, clock);
  const messengerCalls = new RecordingMessenger(messenger, clock);
  const handoff = new Handoff({
    jobId: 'A',
    messenger: messengerCalls,
    presence: presenceCalls,
    scheduler: clock,
    logger: recordingLogger().logger,
  });
  return { clock, presence, messenger, presenceCalls, messengerCalls, handoff };
}

describe('handoff timings', () => {
  it('beats once at start, then every 3 s, each with a 10 s TTL', async () => {
    const { clock, presenceCalls, handoff } = setup();
    handoff.start();
    await clock.advance(9_999);
    expect(presenceCalls.calls).toEqual([
      [0, 'set', 'A', '1', 10],
      [3_000, 'set', 'A', '1', 10],
      [6_000, 'set', 'A', '1', 10],
      [9_000, 'set', 'A', '1', 10],
    ]);
    await handoff.destroy();
  });

  it('retries a failed beat once, 0.25 s later, and no more', async () => {
    const { clock, presence, presenceCalls, handoff } = setup();
    presence.faults.inject({ kind: 'fail', operation: 'set', times: 2 });
    await clock.run(handoff.beat());
    await clock.advance(10_000);
    expect(presenceCalls.calls).toEqual([
      [0, 'set', 'A', '1', 10],
      [250, 'set', 'A', '1', 10],
    ]);
  });

  it('retries a failed presence read once, 0.25 s later', async () => {
    const { clock, presence, presenceCalls, handoff } = setup();
    presence.faults.inject({ kind: 'fail', operation: 'get' });
    await clock.run(handoff.isAlive('B'));
    expect(presenceCalls.calls.filter(([, op]) => op === 'get')).toEqual([
      [0, 'get', 'B'],
      [250, 'get', 'B'],
    ]);
  });

  it('retries a failed publish once, 0.5 s later', async () => {
    const { clock, messenger, messengerCalls, handoff } = setup();
    messenger.faults.inject({ kind: 'fail', operation: 'publish' });
    await clock.run(handoff.request('PlayerData', 'u1', 'B', 'tok'));
    expect(messengerCalls.calls).toEqual([
      [0, 'publish', 'CKHandoff_B'],
      [500, 'publish', 'CKHandoff_B'],
    ]);
  });

  it("beats at background priority (a beat never keeps a process alive), as each profile's autosave does", async () => {
    const clock = new VirtualClock();
    const priorities: Array<[string, number, string | undefined]> = [];
    const recording: Scheduler = {
      now: () => clock.now(),
      schedule: (ms, callback, priority) => {
        priorities.push(['schedule', ms, priority]);
        return clock.schedule(ms, callback, priority);
      },
      repeat: (ms, callback, priority) => {
        priorities.push(['repeat', ms, priority]);
        return clock.repeat(ms, callback, priority);
      },
    };
    const presence = new MemoryPresence(clock);
    const handoff = new Handoff({
      jobId: 'A',
      messenger: new MemoryMessenger(),
      presence,
      scheduler: recording,
    });
    const startedAt = clock.now();
    handoff.start();
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store: new MemoryStore(),
      scheduler: recording,
      jobId: 'A',
      handoff,
    });
    await clock.run(driver.load('p1'));
    // The beat repeats; the autosaves share one task, armed for the first one due.
    expect(priorities.filter(([, , priority]) => priority === 'background')).toEqual([
      ['repeat', 3_000, 'background'],
      ['schedule', 30_000, 'background'],
    ]);
    // Background work falls due after normal work of the same instant.
    const order: string[] = [];
    clock.schedule(startedAt + 3_000 - clock.now(), () => order.push('normal'));
    handoff.on((event) => {
      if (event.type === 'presence.beat') order.push('beat');
    });
    await clock.advance(3_000);
    expect(order.slice(0, 2)).toEqual(['normal', 'beat']);
    await clock.run(driver.close());
    await handoff.destroy();
  });
});
