/**
 * A readable account of a run: what the workload did, which faults it injected, and what
 * the drivers and the store reported, each stamped with the backend's clock relative to the
 * start. A failure prints the part that led to it.
 */
export interface TraceEntry {
  /** The backend's clock (ms). */
  readonly at: number;
  /** The server it happened on, by label; none for the workload's own lines. */
  readonly server: string | undefined;
  /** The profile key it concerns, if any. */
  readonly key: string | undefined;
  readonly text: string;
}

export interface TraceSelection {
  /** Only lines about these keys, plus the lines about no key (crashes, stalls, faults). */
  readonly keys?: readonly string[];
  /** At most this many lines, the last ones. */
  readonly last?: number;
}

export class Trace {
  readonly entries: TraceEntry[] = [];
  readonly header: string[] = [];
  private readonly aliases: Array<readonly [string, string]> = [];

  /**
   * `on: false` keeps no lines (a batch's runs: a failing seed is run again with its trace,
   * which replays it exactly); `add` then returns at once and callers skip formatting.
   */
  constructor(
    private readonly origin: number,
    readonly on = true,
  ) {}

  /**
   * Writes `name` as `alias` in every line: the cluster's random namespace appears in error
   * messages, and a replay must print the very same trace.
   */
  alias(name: string, alias: string): void {
    this.aliases.push([name, alias]);
  }

  /** Seconds since the run started, as the trace prints them. */
  seconds(at: number): string {
    return ((at - this.origin) / 1000).toFixed(3);
  }

  add(at: number, text: string, server?: string, key?: string): void {
    if (!this.on) return;
    this.entries.push({ at, server, key, text: this.clean(text) });
  }

  /** `text` with every alias applied, as the trace prints it. */
  clean(text: string): string {
    let clean = text;
    for (const [name, alias] of this.aliases) clean = clean.replaceAll(name, alias);
    return clean;
  }

  format(selection: TraceSelection = {}): string {
    const { keys, last } = selection;
    let lines = this.entries.filter(
      (entry) => keys === undefined || entry.key === undefined || keys.includes(entry.key),
    );
    const skipped = last !== undefined && lines.length > last ? lines.length - last : 0;
    if (skipped) lines = lines.slice(skipped);
    const body = lines.map((entry) => this.line(entry));
    if (skipped) body.unshift(`  ... ${skipped} earlier lines`);
    return [...this.header.map((line) => `  ${line}`), ...body].join('\n');
  }

  private line(entry: TraceEntry): string {
    const seconds = this.seconds(entry.at).padStart(9);
    const server = (entry.server ?? '').padEnd(2);
    const key = (entry.key ?? '').padEnd(4);
    return `  +${seconds}s ${server} ${key} ${entry.text}`;
  }
}
