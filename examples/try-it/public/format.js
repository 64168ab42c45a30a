// @ts-check
/** A time as the page shows it: "340 ms", "13.31 s", "2.115 s" (exact to the millisecond). */
export function formatMs(/** @type {number} */ ms) {
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(3).replace(/0$/, '')} s`;
}

/** A running clock: whole tenths of a second, so the digits do not flicker. */
export function formatClock(/** @type {number} */ ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}
