/** The seed's "When it is on" rule for a driver that attaches to a host, as a pure function. */
export interface HandoffRuleInput {
  /** The driver's `handoff` option, as given. */
  readonly option: 'off' | 'instance' | 'default';
  /** True when the options set a `jobId` (tests simulating servers). */
  readonly testJobId: boolean;
  readonly hostJobId: string;
  /** True when each port exists and reaches other processes. */
  readonly sharedStore: boolean;
  readonly sharedMessenger: boolean;
  readonly sharedPresence: boolean;
}

/**
 * Handoff is on by default for a live server: not turned off, no test jobId, a non-empty
 * host jobId, and ports that reach other servers (the in-memory backend is one process).
 * An instance passed in is used as given, whatever else holds.
 */
export function handoffByDefault(input: HandoffRuleInput): boolean {
  if (input.option !== 'default') return input.option === 'instance';
  if (input.testJobId || input.hostJobId === '') return false;
  return input.sharedStore && input.sharedMessenger && input.sharedPresence;
}
