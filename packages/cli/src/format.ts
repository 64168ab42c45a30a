/** Text for people: aligned rows, tables, durations and times. */

/** `label  value` rows, labels padded to one width. */
export function rows(entries: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(0, ...entries.map(([label]) => label.length));
  return entries.map(([label, value]) => `  ${label.padEnd(width)}  ${value}\n`).join('');
}

/** A table with a header row; every cell padded to its column's width. */
export function table(header: readonly string[], body: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `${cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd()}\n`;
  return line(header) + body.map(line).join('');
}

/** 850 ms, 12.4 s, 3.0 min, 2.1 h, 3.0 d. */
export function duration(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${(abs / 1_000).toFixed(1)} s`;
  if (abs < 3_600_000) return `${sign}${(abs / 60_000).toFixed(1)} min`;
  if (abs < 86_400_000) return `${sign}${(abs / 3_600_000).toFixed(1)} h`;
  return `${sign}${(abs / 86_400_000).toFixed(1)} d`;
}

/** An ISO time and how long ago it was. */
export function when(time: number, now: number): string {
  const ago = now - time;
  const relative = ago >= 0 ? `${duration(ago)} ago` : `in ${duration(-ago)}`;
  return `${new Date(time).toISOString()} (${relative})`;
}

/** Compact JSON, cut to `max` characters, safe to print (`printable`). */
export function preview(value: unknown, max = 120): string {
  const text = printable(JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A string from the store (a message id) as a JSON string literal, safe to print. */
export function quoted(text: string): string {
  return printable(JSON.stringify(text));
}

/**
 * What JSON leaves raw but a terminal acts on, escaped as `\uXXXX`: C1 controls (U+009B is a
 * CSI), line and paragraph separators, and the bidirectional overrides and isolates that can
 * make text read as something else. JSON already escapes C0 controls and lone surrogates.
 */
export function printable(json: string): string {
  let out = '';
  for (const char of json) {
    const code = char.codePointAt(0)!;
    out += acted(code) ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

/** True for a character a terminal acts on (or reorders) that JSON leaves raw. */
export function acted(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x61c ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}
