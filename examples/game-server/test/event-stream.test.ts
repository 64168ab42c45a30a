/**
 * `GET /events` with `--batch-events` ships a server's events after a hand-over, not during it:
 * kept while a load, a handoff request or a release is in flight, shipped in one write once the
 * server is quiet, and never held past the longest delay; without it, each as it happens. On
 * the virtual clock: exact waits.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANSWER_QUIET,
  EventStream,
  MAX_DELAY_MS,
  QUIET_MS,
  type Watcher,
} from '../src/event-stream.js';
import { decodeEvent } from '../src/event-wire.js';

class RecordingWatcher implements Watcher {
  readonly writes: string[] = [];
  ended = false;

  write(chunk: string): void {
    this.writes.push(chunk);
  }

  end(): void {
    this.ended = true;
  }

  /** The events of every write after the connect comment, in order. */
  events(): DataDriverEvent['type'][] {
    return this.writes
      .flatMap((chunk) => chunk.split('\n\n'))
      .filter((message) => message.startsWith('data: '))
      .map((message) => decodeEvent(message.slice('data: '.length)).type);
  }
}

let time = 0;
function event(type: DataDriverEvent['type'], key = 'p1'): DataDriverEvent {
  return { type, key, time: time++, jobId: 'server-a' } as DataDriverEvent;
}

describe("a game server's event stream", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes nothing while a load is in flight, however long it takes, then ships its events in one write once quiet', () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    expect(watcher.writes).toEqual([': connected\n\n']);
    stream.push(event('load.started'));
    stream.push(event('handoff.request.sent'));
    vi.advanceTimersByTime(MAX_DELAY_MS - QUIET_MS - 1); // a slow holder: in flight, kept
    expect(watcher.writes).toHaveLength(1);
    stream.push(event('handoff.reply.received'));
    stream.push(event('load.loaded'));
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(watcher.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(watcher.writes).toHaveLength(2);
    expect(watcher.events()).toEqual([
      'load.started',
      'handoff.request.sent',
      'handoff.reply.received',
      'load.loaded',
    ]);
  });

  it("keeps the holder's events until its reply is sent, then ships them once quiet for ANSWER_QUIET times the answer's time", () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('handoff.request.received'));
    stream.push(event('profile.kicked'));
    stream.push(event('profile.releasing'));
    vi.advanceTimersByTime(15);
    expect(watcher.writes).toHaveLength(1);
    stream.push(event('profile.released'));
    stream.push(event('handoff.reply.sent')); // answered in 15 ms: quiet for 60 more
    vi.advanceTimersByTime(15 * ANSWER_QUIET - 1);
    expect(watcher.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(watcher.events()).toEqual([
      'handoff.request.received',
      'profile.kicked',
      'profile.releasing',
      'profile.released',
      'handoff.reply.sent',
    ]);
  });

  it('after answering a request, stays quiet for ANSWER_QUIET times as long as the answer took', () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('handoff.request.received'));
    vi.advanceTimersByTime(15); // a slow release
    stream.push(event('handoff.reply.sent'));
    vi.advanceTimersByTime(15 * ANSWER_QUIET - 1);
    expect(watcher.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(watcher.events()).toEqual(['handoff.request.received', 'handoff.reply.sent']);
  });

  it('ships a busy server at the latest MAX_DELAY_MS after the first event it kept', () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('load.started', 'never-ends'));
    for (let ms = 0; ms < MAX_DELAY_MS - 1; ms++) {
      vi.advanceTimersByTime(1);
      stream.push(event('presence.beat'));
    }
    expect(watcher.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(watcher.writes).toHaveLength(2);
    expect(watcher.events()).toHaveLength(MAX_DELAY_MS);
  });

  it('forgets a load whose end never came once it shipped: the next events ship once quiet', () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('load.started', 'cancelled'));
    vi.advanceTimersByTime(MAX_DELAY_MS);
    expect(watcher.writes).toHaveLength(2);
    stream.push(event('presence.beat'));
    vi.advanceTimersByTime(QUIET_MS);
    expect(watcher.writes).toHaveLength(3);
  });

  it('ships no earlier than QUIET_MS on its own clock when a timer fires before its delay has passed', () => {
    // A clock running 0.2 % slow against the timers: each timer fires early by its reading.
    const stream = new EventStream({ batched: true, now: () => performance.now() * 0.998 });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('load.started'));
    stream.push(event('load.loaded'));
    vi.advanceTimersByTime(QUIET_MS); // 9.98 ms on the stream's clock
    expect(watcher.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(watcher.events()).toEqual(['load.started', 'load.loaded']);
  });

  it("arms one timer for a hand-over's events, however many there are, and still ships them once quiet", () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      for (const type of [
        'load.started',
        'load.waiting',
        'handoff.request.sent',
        'handoff.reply.received',
        'load.loaded',
      ] as const) {
        stream.push(event(type));
      }
      expect(timers).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(QUIET_MS - 1);
      expect(watcher.writes).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(watcher.events()).toHaveLength(5);
    } finally {
      timers.mockRestore();
    }
  });

  it('ships a hand-over whose events are spread over time QUIET_MS after its last one', () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('load.started'));
    vi.advanceTimersByTime(2);
    stream.push(event('handoff.request.sent'));
    vi.advanceTimersByTime(3);
    stream.push(event('load.loaded')); // at 5 ms: the load ends, so due at 15
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(watcher.writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(watcher.events()).toEqual(['load.started', 'handoff.request.sent', 'load.loaded']);
  });

  it('keeps nothing while nobody watches', () => {
    const stream = new EventStream({ batched: true });
    stream.push(event('load.started'));
    stream.push(event('load.loaded'));
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    vi.advanceTimersByTime(MAX_DELAY_MS);
    stream.flush();
    expect(watcher.writes).toEqual([': connected\n\n']);
  });

  it('stops writing to a watcher that left', () => {
    const stream = new EventStream({ batched: true });
    const [stays, leaves] = [new RecordingWatcher(), new RecordingWatcher()];
    stream.add(stays);
    const stop = stream.add(leaves);
    stop();
    stream.push(event('presence.beat'));
    vi.advanceTimersByTime(QUIET_MS);
    expect(stays.events()).toEqual(['presence.beat']);
    expect(leaves.events()).toEqual([]);
  });

  it('without batching, writes each event as it happens', () => {
    const stream = new EventStream();
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('load.started'));
    expect(watcher.events()).toEqual(['load.started']);
    stream.push(event('handoff.request.sent'));
    expect(watcher.writes).toHaveLength(3);
  });

  it('ships what it kept, then ends every stream, when the server stops', () => {
    const stream = new EventStream({ batched: true });
    const watcher = new RecordingWatcher();
    stream.add(watcher);
    stream.push(event('load.started'));
    stream.end();
    expect(watcher.events()).toEqual(['load.started']);
    expect(watcher.ended).toBe(true);
  });
});
