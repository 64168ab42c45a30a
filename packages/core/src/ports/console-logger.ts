import type { Logger } from './logger.js';

/** The default logger: warnings and errors to the console, prefixed; debug and info dropped. */
export function consoleLogger(prefix = '[DataDriver]'): Logger {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => console.warn(`${prefix} ${message}`),
    error: (message) => console.error(`${prefix} ${message}`),
  };
}
