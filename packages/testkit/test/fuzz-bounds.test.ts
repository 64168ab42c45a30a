import { describe, expect, it } from 'vitest';
import { globalsSnapshot } from '../src/index.js';

describe('globalsSnapshot', () => {
  it('tells a replaced prototype member apart, not only an added or removed one', () => {
    const before = globalsSnapshot();
    const original = Object.prototype.toString;
    try {
      Object.prototype.toString = function replaced() {
        return 'replaced';
      };
      expect(globalsSnapshot()).not.toEqual(before);
    } finally {
      Object.prototype.toString = original;
    }
    expect(globalsSnapshot()).toEqual(before);
  });

  it('tells an added prototype member apart', () => {
    const before = globalsSnapshot();
    Object.defineProperty(Array.prototype, 'injected', { value: 1, configurable: true });
    try {
      expect(globalsSnapshot()).not.toEqual(before);
    } finally {
      delete (Array.prototype as unknown as Record<string, unknown>).injected;
    }
    expect(globalsSnapshot()).toEqual(before);
  });
});
