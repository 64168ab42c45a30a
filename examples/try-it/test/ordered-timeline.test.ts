import { describe, expect, it } from 'vitest';
import { OrderedTimeline } from '../src/redis/ordered-timeline.js';
import type { StreamMessage } from '../src/stream.js';
import type { WorldEvent } from '../src/world-event.js';

describe('the timeline of a Redis run', () => {
  const start = Date.now();
  const beat = (server: string, t: number): WorldEvent => ({
    type: 'presence.beat',
    time: start + t,
    jobId: server,
    server,
  });

  it('sends the entries up to the end in time order, once, and none that arrive after it', () => {
    const sent: StreamMessage[] = [];
    const timeline = new OrderedTimeline(start, (message) => sent.push(message));
    timeline.add(beat('B', 20));
    timeline.add(beat('A', 10));
    timeline.add(beat('A', 50)); // after the end: dropped
    timeline.finish(30);
    timeline.add(beat('B', 25)); // arrived while the runner read the outcome
    timeline.finish(60);
    expect(
      sent.map((message) =>
        message.kind === 'entry' ? `${message.entry.server} ${message.entry.t}` : message.kind,
      ),
    ).toEqual(['A 10', 'B 20']);
  });
});
