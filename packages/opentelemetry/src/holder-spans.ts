/**
 * The holder's side of a hand-over as spans: one per request received, from its arrival to
 * the reply sent to that requester, with what happened to the profile meanwhile as span
 * events. Each is a child of the span context derived from the request's lock token, which the
 * requester's load links to, so the two servers' spans of one hand-over find each other.
 */
import {
  type Attributes,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { handoffSpanContext } from './handoff-link.js';
import { ATTRIBUTES, SPANS } from './names.js';

/** Open spans are ended past this many, oldest first: a reply that never comes leaks nothing. */
const MAX_OPEN = 10_000;

export class HolderSpans {
  private readonly open = new Map<string, { readonly key: string; readonly span: Span }>();

  constructor(
    private readonly tracer: Tracer,
    private readonly driver: string,
  ) {}

  received(
    key: string,
    requester: string,
    token: string | undefined,
    attributes: Attributes,
    time: number,
  ): void {
    const parent =
      token === undefined
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, handoffSpanContext(this.driver, key, token));
    const span = this.tracer.startSpan(
      SPANS.release,
      {
        kind: SpanKind.CONSUMER,
        startTime: time,
        attributes: { ...attributes, [ATTRIBUTES.peerServer]: requester },
      },
      parent,
    );
    const id = `${key}\u0000${requester}`;
    this.open.get(id)?.span.end(time); // a repeated request: the newest one stands
    this.open.set(id, { key, span });
    if (this.open.size > MAX_OPEN) {
      const [oldest] = this.open;
      if (oldest) {
        oldest[1].span.end(time);
        this.open.delete(oldest[0]);
      }
    }
  }

  /** What happened to `key`'s profile while requests for it are open. */
  event(key: string, name: string, attributes: Attributes, time: number): void {
    for (const entry of this.open.values()) {
      if (entry.key === key) entry.span.addEvent(name, attributes, time);
    }
  }

  replied(key: string, requester: string, time: number): void {
    const id = `${key}\u0000${requester}`;
    const entry = this.open.get(id);
    if (!entry) return;
    entry.span.addEvent('datadriver.handoff.reply.sent', {}, time);
    entry.span.end(time);
    this.open.delete(id);
  }

  endAll(time: number): void {
    for (const { span } of this.open.values()) span.end(time);
    this.open.clear();
  }
}
