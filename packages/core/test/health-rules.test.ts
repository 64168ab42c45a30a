/** The health rule (`rules/health.ts`): when a run of store failures makes a driver critical. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import { DEFAULT_HEALTH_RULE, isOutageFailure, judgeHealth } from '../src/rules/health.js';

const rule = { failures: 3, windowMs: 10_000 };

describe('judgeHealth (3 failures in 10 s)', () => {
  const rows: Array<[string, 'ok' | 'critical', number[], number, 'ok' | 'critical']> = [
    ['no failure: ok', 'ok', [], 0, 'ok'],
    ['two in the window: still ok', 'ok', [1_000, 2_000], 2_000, 'ok'],
    ['the third in the window: critical', 'ok', [1_000, 2_000, 3_000], 3_000, 'critical'],
    ['three, the first just out of the window: ok', 'ok', [0, 5_000, 10_000], 10_000, 'ok'],
    ['three, the first 1 ms inside: critical', 'ok', [1, 5_000, 10_000], 10_000, 'critical'],
    ['critical, one failure left in the window: critical', 'critical', [5_000], 14_999, 'critical'],
    ['critical, a whole window since the last: ok', 'critical', [5_000], 15_000, 'ok'],
    ['critical, no failure at all: ok', 'critical', [], 0, 'ok'],
  ];
  for (const [title, current, times, now, expected] of rows) {
    it(title, () => expect(judgeHealth(current, times, now, rule)).toBe(expected));
  }

  it('the default is five failures within 120 s', () => {
    expect(DEFAULT_HEALTH_RULE).toEqual({ failures: 5, windowMs: 120_000 });
  });
});

describe('isOutageFailure', () => {
  const outage = ['BackendFailed', 'Unavailable', 'Throttled', 'Timeout', 'Misconfigured'] as const;
  for (const [name, code] of Object.entries(ErrorCode)) {
    const counts = (outage as readonly string[]).includes(name);
    it(`${code}: ${counts ? 'counts' : 'does not count'}`, () => {
      expect(isOutageFailure(code)).toBe(counts);
    });
  }
});
