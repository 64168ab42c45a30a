/**
 * The servers' events as timeline entries, in time order. Each server streams its own events
 * over its own connection, so one server's event can arrive a few ms after a later one of the
 * other's: entries wait a short window and go out sorted by the time they happened.
 */
import type { StreamSink, TimelineEntry } from '../stream.js';
import { timelineText } from '../timeline-text.js';
import type { WorldEvent } from '../world-event.js';

/** Far more than two local streams drift apart, far less than a reader notices. */
const WINDOW_MS = 150;

export class OrderedTimeline {
  private pending: TimelineEntry[] = [];
  private readonly timer: NodeJS.Timeout;
  private finished = false;

  constructor(
    /** When the story started (ms since the epoch): entries' `t` counts from it. */
    private readonly start: number,
    private readonly sink: StreamSink,
  ) {
    this.timer = setInterval(() => this.flush(Date.now() - this.start - WINDOW_MS), WINDOW_MS / 3);
  }

  /**
   * Takes an event as it arrives; events before the story started are not part of it, nor those
   * arriving after it finished.
   */
  add(event: WorldEvent): void {
    if (this.finished) return;
    const words = timelineText(event, (label) => label);
    const t = event.time - this.start;
    if (!words || t < 0) return;
    this.pending.push({ t, server: event.server, type: event.type, ...words });
  }

  /**
   * Sends every entry up to `end` (ms since the start) and drops the rest: the story is over.
   * Only the first call counts.
   */
  finish(end: number): void {
    if (this.finished) return;
    this.finished = true;
    clearInterval(this.timer);
    this.flush(end);
    this.pending = [];
  }

  private flush(upTo: number): void {
    // A stable sort: one server's events at the same ms keep the order it sent them in.
    const due = this.pending.filter((entry) => entry.t <= upTo).sort((a, b) => a.t - b.t);
    if (due.length === 0) return;
    this.pending = this.pending.filter((entry) => entry.t > upTo);
    for (const entry of due) this.sink({ kind: 'entry', entry });
  }
}
