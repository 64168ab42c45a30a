import type { ProtoDuration, ProtoTimestamp } from './proto-shapes.js';

/** A google.protobuf.Duration in milliseconds; absent or empty means 0. */
export function durationMs(duration: ProtoDuration | null | undefined): number {
  if (!duration) return 0;
  const seconds = Number(duration.seconds ?? 0);
  const nanos = Number(duration.nanos ?? 0);
  return seconds * 1000 + Math.floor(nanos / 1e6);
}

export function durationOfSeconds(seconds: number): ProtoDuration {
  return { seconds: String(seconds), nanos: 0 };
}

/** Epoch milliseconds as a google.protobuf.Timestamp. */
export function timestampOf(epochMs: number): ProtoTimestamp {
  const seconds = Math.floor(epochMs / 1000);
  return { seconds: String(seconds), nanos: (epochMs - seconds * 1000) * 1e6 };
}
