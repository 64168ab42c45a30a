/**
 * No server process dies unasked: every exit is the nemesis's kill or the run's stop. A crash
 * (an unhandled rejection, an uncaught exception) loses the player's session on a live
 * server, which is what the library exists to prevent.
 */
import type { HistoryLine } from '../history.js';
import { originOf } from './by-key.js';
import type { Violation } from './violation.js';

export function checkCrashes(lines: readonly HistoryLine[]): Violation[] {
  const violations: Violation[] = [];
  for (const line of lines) {
    if (line.kind !== 'exit' || line.expected) continue;
    violations.push({
      check: 'server-crashed',
      key: originOf(line),
      detail: `${originOf(line)} exited on its own (code ${line.code}, signal ${line.signal}) at ${line.at}: its output is in servers.log`,
      evidence: [line],
    });
  }
  return violations;
}
