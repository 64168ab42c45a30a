import type { Logger } from '@datadriver/core';

/** One line a `recordingLogger` kept. */
export interface LoggedLine {
  readonly level: keyof Logger;
  readonly message: string;
  /** The details passed with the line, when there were any. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A Logger that keeps every line, for asserting what an adapter reported, at what level and
 * with what details.
 */
export function recordingLogger(): Logger & { readonly lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at =
    (level: keyof Logger) => (message: string, details?: Readonly<Record<string, unknown>>) =>
      void lines.push({ level, message, ...(details !== undefined && { details }) });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
