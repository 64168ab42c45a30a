import { DataDriverError, ErrorCode } from '@datadriver/core';
import { describe, expect, it } from 'vitest';
import { relabel } from '../src/redis/relabel.js';
import { RunNames } from '../src/redis/run-names.js';

describe('the names of a Redis run', () => {
  const names = new RunNames('3f2a');
  const labelOf = (name: string) => names.labelOf(name);

  it('are fresh per run and read back as the page’s labels', () => {
    expect(names.user).toBe('try-it-3f2a-p1');
    expect(names.jobId('A')).toBe('try-it-3f2a-A');
    expect(labelOf('try-it-3f2a-B')).toBe('B');
    expect(labelOf('try-it-ffff-B')).toBe('try-it-ffff-B'); // another run's: left alone
    expect(new RunNames().prefix).not.toBe(new RunNames().prefix);
  });

  it('are replaced wherever they appear in an event, an error kept as it is', () => {
    const error = new DataDriverError(ErrorCode.Locked, 'try-it-3f2a-p1 is locked');
    const event = {
      type: 'load.failed',
      jobId: 'try-it-3f2a-B',
      key: 'try-it-3f2a-p1',
      holder: { jobId: 'try-it-3f2a-A', token: 't', time: 1, presence: true },
      list: ['try-it-3f2a-A', 3],
      error,
    };
    const renamed = relabel(event, labelOf);
    expect(renamed).toMatchObject({
      jobId: 'B',
      key: 'p1',
      holder: { jobId: 'A', token: 't', time: 1, presence: true },
      list: ['A', 3],
    });
    expect(renamed.error).toBe(error);
  });
});
