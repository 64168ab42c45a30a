/**
 * A server's event with the run's names (`try-it-3f2a-A`, `try-it-3f2a-p1`) replaced by the
 * page's (`A`, `p1`) wherever they appear: the key, the jobId, a holder, a lock, a requester.
 * The timeline's words then read as they do in the in-memory runner.
 */
export function relabel<T>(value: T, labelOf: (name: string) => string): T {
  return renamed(value, labelOf) as T;
}

function renamed(value: unknown, labelOf: (name: string) => string): unknown {
  if (typeof value === 'string') return labelOf(value);
  if (Array.isArray(value)) return value.map((item) => renamed(item, labelOf));
  // Only plain data: an error keeps its class (the timeline shows its code, never its text).
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, renamed(item, labelOf)]),
  );
}
