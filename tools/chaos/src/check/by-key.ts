import type { HistoryLine, ServerLine } from '../history.js';

type Kind = ServerLine['kind'];
export type LineOf<K extends Kind> = Extract<ServerLine, { kind: K }>;

/** The server lines of `kind`. */
export function ofKind<K extends Kind>(lines: readonly HistoryLine[], kind: K): LineOf<K>[] {
  return lines.filter((line): line is LineOf<K> => line.kind === kind && 'server' in line);
}

/** The server lines of `kind`, grouped by profile key. */
export function byKey<K extends Kind>(
  lines: readonly HistoryLine[],
  kind: K,
): Map<string, LineOf<K>[]> {
  const groups = new Map<string, LineOf<K>[]>();
  for (const line of ofKind(lines, kind)) {
    if (!('key' in line)) continue;
    const group = groups.get(line.key) ?? [];
    group.push(line);
    groups.set(line.key, group);
  }
  return groups;
}

/** `server#incarnation`: one process's lines. */
export function originOf(line: { readonly server: string; readonly incarnation: number }): string {
  return `${line.server}#${line.incarnation}`;
}

/**
 * The largest `value` among `items` whose time is strictly before `time`, and the item holding
 * it (`items` sorted by time ascending; `prefix` their running maxima).
 */
export class RunningMax<T> {
  private readonly prefix: T[] = [];

  constructor(
    private readonly items: readonly T[],
    private readonly timeAt: (item: T) => number,
    valueAt: (item: T) => number,
  ) {
    let best: T | undefined;
    for (const item of items) {
      if (best === undefined || valueAt(item) > valueAt(best)) best = item;
      this.prefix.push(best);
    }
  }

  before(time: number): T | undefined {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.timeAt(this.items[middle]!) < time) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? undefined : this.prefix[low - 1];
  }
}
