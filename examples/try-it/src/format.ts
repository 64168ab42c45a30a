/** A wait as the page shows it: "340 ms", "13.31 s", "2.115 s" (exact to the millisecond). */
export function formatMs(ms: number): string {
  if (Math.abs(ms) < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(3).replace(/0$/, '')} s`;
}
