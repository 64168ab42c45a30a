/**
 * The online nudge: `{ T: "M", D, K }` on the holder's `CKHandoff_<jobId>` topic, telling it
 * that profile K of driver D has a message pending. It carries no message (the inbox is the
 * only truth), so a forged or replayed one costs the holder one inbox read. A server whose
 * `parseHandoffMessage` predates it reads an unknown `T` as nothing and ignores it; it picks the
 * message up at its next autosave. To move into `wire.ts` (and `signing.ts`'s fields) when wired.
 */
import { isPlainObject } from '../../ports/json.js';
import { isWellFormedText } from '../keys.js';

// A type alias, not an interface: it must be assignable to the messenger's JsonObject.
export type MessageNudge = {
  readonly T: 'M';
  /** The driver's name. */
  readonly D: string;
  /** The profile key. */
  readonly K: string;
};

export function nudgeMessage(driver: string, key: string): MessageNudge {
  return { T: 'M', D: driver, K: key };
}

/** The nudge, or `undefined` for anything else or malformed (ignored, as the handoff does). */
export function parseNudge(value: unknown): MessageNudge | undefined {
  if (!isPlainObject(value) || value.T !== 'M') return undefined;
  if (!isWellFormedText(value.D) || !isWellFormedText(value.K)) return undefined;
  return nudgeMessage(value.D, value.K);
}

/**
 * What a holder does with nudges for one profile: at most one pass runs, and nudges that come
 * while it runs make one more pass after it, never more (the pass reads the whole inbox).
 */
export type PassState = 'idle' | 'running' | 'running-then-again';

/** A nudge (or an autosave) asks for a pass: whether to start one now, and the next state. */
export function passRequested(state: PassState): {
  readonly state: PassState;
  readonly start: boolean;
} {
  if (state === 'idle') return { state: 'running', start: true };
  return { state: 'running-then-again', start: false };
}

/** A pass ended: whether to start another now, and the next state. */
export function passEnded(state: PassState): {
  readonly state: PassState;
  readonly start: boolean;
} {
  if (state === 'running-then-again') return { state: 'running', start: true };
  return { state: 'idle', start: false };
}
