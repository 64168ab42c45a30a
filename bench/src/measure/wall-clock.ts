/**
 * The wall clock in fractional milliseconds (`performance.timeOrigin` + `performance.now()`).
 * Two processes' readings differ by how far the system clock moved against the monotonic one
 * between their starts (up to a millisecond on this VM), so a time from one process to another
 * subtracts the offset measured between them (`MessageHolder.clockOffset`).
 */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}
