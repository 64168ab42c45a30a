import { describe, expect, it } from 'vitest';
import { formatMs } from '../src/format.js';
import { parseSpeed } from '../src/speed.js';

describe('formatMs', () => {
  it('shows milliseconds below a second, and seconds exact to the millisecond above', () => {
    expect(formatMs(0)).toBe('0 ms');
    expect(formatMs(340)).toBe('340 ms');
    expect(formatMs(1100)).toBe('1.10 s');
    expect(formatMs(13_310)).toBe('13.31 s');
    expect(formatMs(15_220)).toBe('15.22 s');
    expect(formatMs(2115)).toBe('2.115 s');
  });
});

describe('parseSpeed', () => {
  it('reads ?speed= as a positive number or instant, 1 when absent', () => {
    expect(parseSpeed(null)).toBe(1);
    expect(parseSpeed('')).toBe(1);
    expect(parseSpeed('0.25')).toBe(0.25);
    expect(parseSpeed('instant')).toBe('instant');
  });

  it('refuses anything else', () => {
    for (const bad of ['0', '-1', 'fast', '1e9', 'NaN']) {
      expect(() => parseSpeed(bad)).toThrow('speed must be a number above 0');
    }
  });
});
