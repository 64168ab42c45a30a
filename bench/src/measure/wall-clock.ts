/**
 * The wall clock in fractional milliseconds (`performance.timeOrigin` + `performance.now()`):
 * comparable between two processes on one machine, below the millisecond, so a message's
 * time from a send in one process to its effect in another is one subtraction.
 */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}
