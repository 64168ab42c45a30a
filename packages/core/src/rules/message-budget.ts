import { checkKnownKeys, describeValue } from './config-checks.js';

/**
 * The seed's "MessageDriver applies MessagingService's own limits to the requests": how many
 * handoff messages one server publishes and accepts. Roblox's MessagingService takes messages
 * of at most 1 kB, lets a server publish 600 + 240 × players messages a minute, and delivers a
 * topic (10 + 20 × servers) a minute. Here each server has a budget per direction, a bucket
 * that refills at its rate per minute and holds ten seconds' worth, so a short burst passes
 * and a flood is cut to the rate: it cannot grow memory or starve saves. Pure: the caller
 * passes the time.
 */
export interface MessageLimits {
  /** Messages this server publishes per minute, whatever its players (MessagingService: 600). */
  readonly publishPerMinute: number;
  /** More per minute for each profile this server holds or is loading (MessagingService: 240). */
  readonly publishPerPlayerPerMinute: number;
  /** Messages this server accepts per minute; the rest are dropped unread. */
  readonly receivePerMinute: number;
}

export const DEFAULT_MESSAGE_LIMITS: MessageLimits = Object.freeze({
  publishPerMinute: 600,
  publishPerPlayerPerMinute: 240,
  receivePerMinute: 600,
});

/** The largest handoff message: a messenger's own limit (`ports/messenger.ts`). */
export { MAX_MESSAGE_BYTES } from '../ports/messenger.js';

/** How much of a minute's budget a burst may spend at once. */
const BURST_SECONDS = 10;

export class MessageBudget {
  private tokens: number | undefined;
  private at = 0;

  /** Takes one message from the budget at `now` at a rate of `perMinute`; false when spent. */
  take(now: number, perMinute: number): boolean {
    const capacity = Math.max(1, (perMinute * BURST_SECONDS) / 60);
    const refilled =
      this.tokens === undefined ? capacity : this.tokens + ((now - this.at) * perMinute) / 60_000;
    this.at = now;
    this.tokens = Math.min(capacity, refilled);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * `limits` with defaults applied, or a refusal: `Data.InvalidConfig` for a key it does not
 * know, a RangeError for a rate that is not a non-negative number. `name` is the option's.
 */
export function resolveMessageLimits(
  limits: Partial<MessageLimits> = {},
  name = 'limits',
): MessageLimits {
  checkKnownKeys(limits, Object.keys(DEFAULT_MESSAGE_LIMITS), `${name}.`);
  const resolved = { ...DEFAULT_MESSAGE_LIMITS, ...limits };
  for (const [key, value] of Object.entries(resolved)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(
        `${name}.${key} must be a non-negative number, got ${describeValue(value)}`,
      );
    }
  }
  return Object.freeze(resolved);
}
