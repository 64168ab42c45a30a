/**
 * Why a player was kicked, from what the driver reported about the key just before: core's
 * `profile.kicked` carries the message (the game's own words), not the cause.
 */
import type { DataDriverEvent } from '@datadriver/core';

export type KickCause = 'joined_elsewhere' | 'lock_lost' | 'locked' | 'load_failed' | 'other';

/** Only the newest cause per key, for keys kicked soon after: bounded by this many keys. */
const MAX_KEYS = 10_000;

export class KickCauses {
  private readonly causes = new Map<string, KickCause>();

  saw(event: Extract<DataDriverEvent, { readonly key: string }>): void {
    const cause = causeOf(event);
    if (cause === undefined) return;
    this.causes.delete(event.key);
    this.causes.set(event.key, cause);
    if (this.causes.size > MAX_KEYS) {
      const [oldest] = this.causes.keys();
      if (oldest !== undefined) this.causes.delete(oldest);
    }
  }

  /** The cause of a kick of `key` now: what the driver last reported for it. */
  causeOf(key: string): KickCause {
    const cause = this.causes.get(key) ?? 'other';
    return cause;
  }
}

function causeOf(event: Extract<DataDriverEvent, { readonly key: string }>): KickCause | undefined {
  switch (event.type) {
    case 'handoff.request.received':
      return event.action === 'kick' ? 'joined_elsewhere' : undefined;
    case 'lock.lost':
      return 'lock_lost';
    case 'load.failed':
      return event.error.code === 'Data.Locked' ? 'locked' : 'load_failed';
    case 'load.loaded':
      return 'other';
    default:
      return undefined;
  }
}
