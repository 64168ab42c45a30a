import { DEFAULT_MESSAGE_LIMITS, type MessageLimits } from '@datadriver/core/rules';

/** The handoff's message budgets (MessagingService's by default) times `times`. */
export function messageLimitsTimes(times: number): MessageLimits {
  const limits = Object.entries(DEFAULT_MESSAGE_LIMITS).map(([name, perMinute]) => [
    name,
    perMinute * times,
  ]);
  return Object.fromEntries(limits) as MessageLimits;
}
