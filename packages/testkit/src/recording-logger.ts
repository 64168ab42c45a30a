import type { Logger } from '@datadriver/core';

/** One line a `recordingLogger` kept. */
export interface LoggedLine {
  readonly level: keyof Logger;
  readonly message: string;
}

/** A Logger that keeps every line, for asserting what an adapter reported and at what level. */
export function recordingLogger(): Logger & { readonly lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at = (level: keyof Logger) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
