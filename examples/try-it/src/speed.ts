import type { RunOptions } from './stream.js';

/** Faster than this, a paced run is no different from an instant one. */
const MAX_SPEED = 1000;

/** `?speed=` as a run's speed: a positive number (1 = real time) or `instant`; 1 when absent. */
export function parseSpeed(value: string | null): RunOptions['speed'] {
  if (value === null || value === '') return 1;
  if (value === 'instant') return 'instant';
  const speed = Number(value);
  if (!Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED) {
    throw new RangeError(`speed must be a number above 0 and at most ${MAX_SPEED}, or "instant"`);
  }
  return speed;
}
