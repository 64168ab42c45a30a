/**
 * The span context both servers of a hand-over can name without a byte on the wire (the seed's
 * format is fixed): derived from the driver, the key and the lock token the request names,
 * which the requester saw in the record and the holder holds. The requester's load links to
 * it; the holder's handling of the request is its child. A one-way hash: the ids reveal
 * nothing of the token.
 */
import { createHash } from 'node:crypto';
import { type SpanContext, TraceFlags } from '@opentelemetry/api';

export function handoffSpanContext(driver: string, key: string, token: string): SpanContext {
  const hex = createHash('sha256')
    .update(`datadriver.handoff\u0000${driver}\u0000${key}\u0000${token}`)
    .digest('hex');
  return {
    traceId: hex.slice(0, 32),
    spanId: hex.slice(32, 48),
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  };
}
